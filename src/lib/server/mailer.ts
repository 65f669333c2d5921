/**
 * The functions' one way to send an email. The transport is chosen from the environment:
 *
 * - `RESEND_API_KEY` set: Resend's HTTP API (`POST https://api.resend.com/emails`) through fetch, from
 *   `MAIL_FROM` (e.g. `Scale Pro Marketing <no-reply@scalepro.example>`, a sender on a domain verified in
 *   Resend). A key without `MAIL_FROM` is a configuration error: sending fails with that message.
 * - no provider, and the functions use the local backend (its well-known service key): the local backend's
 *   mail outbox (`POST /__local/outbox`), read with `npm run db:mail`.
 * - otherwise (a hosted backend without a provider): no transport; `sendMail` answers `not-configured` and
 *   the caller falls back (the invitation dialog shows the link to copy).
 *
 * Only functions import this: the keys never reach the browser.
 */
import { LOCAL_SUPABASE, serviceSupabaseConfig } from './service-config.ts';

/** An email: plain text and HTML alternatives of the same message. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What happened to a mail: handed to a transport, or not sent because none is configured. */
export type MailOutcome = { status: 'sent'; via: 'resend' | 'local-outbox' } | { status: 'not-configured' };

/** Thrown when a transport exists but the mail could not be handed to it. */
export class MailDeliveryError extends Error {
  constructor(via: string, detail: string) {
    super(`Sending the mail through ${via} failed: ${detail}`);
  }
}

/** Resend's send endpoint. */
export const RESEND_API_URL = 'https://api.resend.com/emails';

type Env = Record<string, string | undefined>;

async function post(via: string, url: string, headers: Record<string, string>, body: unknown, fetchImpl: typeof fetch): Promise<void> {
  let response: Response;
  try {
    response = await fetchImpl(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  } catch (error) {
    throw new MailDeliveryError(via, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new MailDeliveryError(via, `${response.status} ${text.slice(0, 300)}`.trim());
  }
}

/**
 * Sends `mail` through the transport the environment selects (see the module comment). Resolves with
 * `sent` or `not-configured`; throws `MailDeliveryError` when the transport refused or could not be reached.
 */
export async function sendMail(mail: Mail, { env = process.env, fetchImpl = fetch }: { env?: Env; fetchImpl?: typeof fetch } = {}): Promise<MailOutcome> {
  if (env.RESEND_API_KEY) {
    if (!env.MAIL_FROM) throw new MailDeliveryError('resend', 'MAIL_FROM is not set (the sender address is required with RESEND_API_KEY)');
    await post('resend', RESEND_API_URL, { authorization: `Bearer ${env.RESEND_API_KEY}` }, { from: env.MAIL_FROM, to: [mail.to], subject: mail.subject, text: mail.text, html: mail.html }, fetchImpl);
    return { status: 'sent', via: 'resend' };
  }
  const { url, serviceRoleKey } = serviceSupabaseConfig(env);
  // The well-known demo key is valid only against a local backend: there, the outbox stands in for mail.
  if (serviceRoleKey === LOCAL_SUPABASE.serviceRoleKey) {
    await post('the local outbox', `${url}/__local/outbox`, { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` }, mail, fetchImpl);
    return { status: 'sent', via: 'local-outbox' };
  }
  return { status: 'not-configured' };
}
