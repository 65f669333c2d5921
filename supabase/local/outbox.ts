/**
 * The local backend's mail outbox: Auth stores each mail it would send (recovery, invite, magic link,
 * signup confirmation) in `local_dev.outbox`, a schema the API does not expose, instead of sending it.
 * Developers read it with `npm run db:mail`; tests read it from `GET /__local/outbox?to=...`.
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
  /** What the mail is for: recovery, invite, magiclink, signup. */
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
