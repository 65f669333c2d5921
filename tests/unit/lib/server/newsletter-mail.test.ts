import { describe, expect, it } from 'vitest';
import { confirmationMail } from '../../../../src/lib/server/newsletter-opt-in';

describe('the confirmation mail', () => {
  const links = { confirm: 'https://site.example/api/newsletter/confirm?token=abc', unsubscribe: 'https://site.example/api/newsletter/unsubscribe?token=def' };

  it('names the organization, carries both links in text and HTML, and says that ignoring it adds nothing', () => {
    const mail = confirmationMail('ann@example.com', 'Scale Pro Marketing', links);
    expect(mail.to).toBe('ann@example.com');
    expect(mail.subject).toBe('Confirm your subscription to the Scale Pro Marketing newsletter');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(links.confirm.replace('&', '&amp;'));
      expect(body).toContain(links.unsubscribe);
      expect(body).toContain('without your confirmation the address is not added');
    }
  });

  it('escapes an organization name in the HTML', () => {
    expect(confirmationMail('a@example.com', '<b>Evil</b> & Co', links).html).toContain('&#60;b&#62;Evil&#60;/b&#62; &#38; Co');
  });
});
