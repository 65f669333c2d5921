import { describe, expect, it } from 'vitest';
import { type Subscriber, subscribersCsv, subscriberState } from '../../../../src/lib/back-office/newsletter.ts';

const row = (over: Partial<Subscriber>): Subscriber => ({ id: 'id', email: 'ann@example.com', created_at: '2026-11-01T10:00:00Z', confirmed_at: null, unsubscribed_at: null, ...over });

describe('the newsletter list', () => {
  it('tells each address\'s state: subscribed only once confirmed, unsubscribed whatever came before', () => {
    expect(subscriberState(row({}))).toBe('pending');
    expect(subscriberState(row({ confirmed_at: '2026-11-02T10:00:00Z' }))).toBe('subscribed');
    expect(subscriberState(row({ confirmed_at: '2026-11-02T10:00:00Z', unsubscribed_at: '2026-11-03T10:00:00Z' }))).toBe('unsubscribed');
  });

  it('exports CSV with a header, quoted cells, CRLF lines and formulas defused', () => {
    const csv = subscribersCsv([
      row({ confirmed_at: '2026-11-02T10:00:00Z' }),
      row({ email: '=HYPERLINK("http://evil.example")@example.com' }),
      row({ email: 'quote"s@example.com', unsubscribed_at: '2026-11-03T10:00:00Z' }),
    ]);
    expect(csv).toBe(
      '"email","state","signed_up_at","confirmed_at","unsubscribed_at"\r\n' +
        '"ann@example.com","subscribed","2026-11-01T10:00:00Z","2026-11-02T10:00:00Z",""\r\n' +
        '"\'=HYPERLINK(""http://evil.example"")@example.com","pending","2026-11-01T10:00:00Z","",""\r\n' +
        '"quote""s@example.com","unsubscribed","2026-11-01T10:00:00Z","","2026-11-03T10:00:00Z"\r\n',
    );
  });
});
