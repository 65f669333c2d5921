/**
 * The mail transport chosen from the environment, and the invitation mail's text. The requests a transport
 * makes are captured at the fetch boundary (Resend is a third party; the outbox path is covered against the
 * real local backend in tests/integration/admin-invitation-mail.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { invitationMail } from '../../../src/lib/server/invitation-mail';
import { MailDeliveryError, RESEND_API_URL, sendMail } from '../../../src/lib/server/mailer';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';

const mail = { to: 'new.person@example.com', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };

function recorder(status = 200, body = '{"id":"re_1"}') {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body, { status });
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

describe('sendMail', () => {
  it('sends through Resend with the key and MAIL_FROM when RESEND_API_KEY is set', async () => {
    const { calls, fetchImpl } = recorder();
    const env = { RESEND_API_KEY: 're_key', MAIL_FROM: 'Scale Pro <no-reply@scalepro.example>' };
    expect(await sendMail(mail, { env, fetchImpl })).toEqual({ status: 'sent', via: 'resend' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(RESEND_API_URL);
    expect(new Headers(calls[0]?.init.headers).get('authorization')).toBe('Bearer re_key');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ from: env.MAIL_FROM, to: [mail.to], subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' });
  });

  it('throws with the provider status and text when Resend refuses, and without MAIL_FROM', async () => {
    const { fetchImpl } = recorder(422, '{"message":"Invalid `to` field."}');
    const env = { RESEND_API_KEY: 're_key', MAIL_FROM: 'a@b.example' };
    await expect(sendMail(mail, { env, fetchImpl })).rejects.toThrow(/resend failed: 422 .*Invalid `to` field/);
    await expect(sendMail(mail, { env: { RESEND_API_KEY: 're_key' }, fetchImpl })).rejects.toBeInstanceOf(MailDeliveryError);
  });

  it('uses the local outbox of the backend the functions use when it is the local one', async () => {
    const { calls, fetchImpl } = recorder(201);
    const env = { SUPABASE_URL: 'http://127.0.0.1:59421', SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey };
    expect(await sendMail(mail, { env, fetchImpl })).toEqual({ status: 'sent', via: 'local-outbox' });
    expect(calls[0]?.url).toBe('http://127.0.0.1:59421/__local/outbox');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual(mail);
  });

  it('has no transport for a hosted backend without a provider, and sends nothing', async () => {
    const { calls, fetchImpl } = recorder();
    const env = { SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'a-real-service-key' };
    expect(await sendMail(mail, { env, fetchImpl })).toEqual({ status: 'not-configured' });
    expect(calls).toEqual([]);
  });
});

describe('invitationMail', () => {
  const input = {
    to: 'new.person@example.com',
    organizationName: 'Smith & <Sons>',
    role: 'editor' as const,
    inviter: 'Alex "The Admin" Morgan',
    link: 'https://smith.example/auth?invite=abc_DEF-123',
    expiresAt: '2026-11-28T14:05:00.000Z',
    validDays: 7,
  };

  it('names organization, role, inviter, link and the 7-day expiry', () => {
    const built = invitationMail(input);
    expect(built.to).toBe(input.to);
    expect(built.subject).toBe("You're invited to join Smith & <Sons> as Editor");
    expect(built.text).toContain('Alex "The Admin" Morgan invited you to join Smith & <Sons> as Editor.');
    expect(built.text).toContain(`\n${input.link}\n`);
    expect(built.text).toContain('valid for 7 days, until November 28, 2026, 14:05 UTC.');
  });

  it('escapes every value in the HTML', () => {
    const { html } = invitationMail({ ...input, link: 'https://x.example/auth?invite=a&b="c"' });
    expect(html).toContain('Alex &#34;The Admin&#34; Morgan invited you to join Smith &#38; &#60;Sons&#62; as Editor.');
    expect(html).toContain('<a href="https://x.example/auth?invite=a&#38;b=&#34;c&#34;">Accept the invitation</a>');
    expect(html).not.toContain('<Sons>');
  });
});
