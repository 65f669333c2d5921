/**
 * The local backend's mail outbox: Auth stores each mail it would send (recovery, invite, magic link,
 * signup confirmation) in `local_dev.outbox`, a schema the API does not expose, instead of sending it.
 * Developers read it with `npm run db:mail`; tests read it from `GET /__local/outbox?to=...`. The app's own
 * mails (invitations, through `src/lib/server/mailer.ts`) arrive by `POST /__local/outbox` with
 * the type `app`.
 */
import type pg from 'pg';

/** A mail as Auth would send it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link in the mail (verify URL), when it has one. */
  link: string | null;
  /** What the mail is for: recovery, invite, magiclink, signup (from Auth), app (posted by the app's functions). */
  type: string;
}

/** A stored mail. */
export interface StoredMail extends Mail {
  id: number;
  created_at: string;
}

/** Stores a mail in the outbox. */
export async function storeMail(db: pg.Pool | pg.PoolClient, mail: Mail): Promise<void> {
  await db.query(
    'insert into local_dev.outbox (to_email, subject, text_body, html_body, link, type) values ($1, $2, $3, $4, $5, $6)',
    [mail.to, mail.subject, mail.text, mail.html, mail.link, mail.type],
  );
}

/** Lists stored mails, newest first, optionally only those to one address (case-insensitive). */
export async function listMail(db: pg.Pool | pg.Client, filter: { to?: string; limit?: number } = {}): Promise<StoredMail[]> {
  const { rows } = await db.query(
    `select id::int as id, to_email as "to", subject, text_body as text, html_body as html, link, type,
            to_char(created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
       from local_dev.outbox
      where $1::text is null or lower(to_email) = lower($1)
      order by created_at desc, id desc
      limit $2`,
    [filter.to ?? null, filter.limit ?? 100],
  );
  return rows;
}

/** Largest app mail the outbox takes (subject, text and HTML together), like a provider's limit. */
export const APP_MAIL_MAX_CHARS = 256 * 1024;

/**
 * Reads the body of `POST /__local/outbox`: `{ to, subject, text, html }`, all strings, `to` an address and
 * `subject` and `text` not empty. Returns the mail to store (type `app`, no verify link) or what is wrong.
 */
export function parseAppMail(body: string): Mail | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'The body must be JSON: { to, subject, text, html }.';
  }
  const fields = value as Record<string, unknown> | null;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return 'The body must be an object: { to, subject, text, html }.';
  const { to, subject, text, html } = fields;
  if (typeof to !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(to)) return 'to: an email address is required.';
  if (typeof subject !== 'string' || !subject.trim()) return 'subject: a non-empty string is required.';
  if (typeof text !== 'string' || !text.trim()) return 'text: a non-empty string is required.';
  if (typeof html !== 'string') return 'html: a string is required.';
  if (subject.length + text.length + html.length > APP_MAIL_MAX_CHARS) return `The mail is larger than ${APP_MAIL_MAX_CHARS} characters.`;
  return { to, subject, text, html, link: null, type: 'app' };
}
