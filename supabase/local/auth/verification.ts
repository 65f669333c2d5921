/**
 * Email verification tokens as GoTrue makes them: a 6-digit one-time code, and its hash
 * (hex SHA-224 of email + code) stored on the user (`recovery_token` or `confirmation_token`) and in
 * `auth.one_time_tokens`. Links carry the hash (`/auth/v1/verify?token=<hash>&type=...`); `verifyOtp`
 * sends either the hash (`token_hash`) or the email and code. Tokens are valid for one hour and once.
 *
 * A six-digit code can be guessed where a hash cannot, so codes allow a few wrong guesses: after
 * MAX_WRONG_CODES wrong codes for the same user and kind of token, the outstanding token is invalidated and
 * the right code fails too, until a new mail issues a fresh token (which resets the count). The count lives
 * in `local_dev.verification_attempts`. Hosted GoTrue has no such count (it limits `/verify` per IP address,
 * `[auth.rate_limit] token_verifications`, 30 per 5 minutes by default), so this is stricter than hosted
 * Supabase: a test that passes because of it says nothing about a hosted project.
 */
import { createHash, randomInt, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { storeMail } from '../outbox.ts';
import { authErrors, CommitWithError } from './errors.ts';
import { findUserByEmail, type UserRow } from './users.ts';

type Db = pg.Pool | pg.PoolClient;

/** GoTrue's `mailer_otp_exp` default. */
const TOKEN_TTL_SECONDS = 3600;

/** Wrong codes a token survives: the one that reaches this count invalidates it. */
export const MAX_WRONG_CODES = 5;

/** The kinds of link GoTrue mails. */
export type VerificationType = 'recovery' | 'invite' | 'magiclink' | 'signup';

/** Which user column (and one_time_tokens type) holds each kind of token. */
const TOKEN_COLUMN: Record<VerificationType, { column: string; sentAt: string; kind: string }> = {
  recovery: { column: 'recovery_token', sentAt: 'recovery_sent_at', kind: 'recovery_token' },
  magiclink: { column: 'recovery_token', sentAt: 'recovery_sent_at', kind: 'recovery_token' },
  invite: { column: 'confirmation_token', sentAt: 'confirmation_sent_at', kind: 'confirmation_token' },
  signup: { column: 'confirmation_token', sentAt: 'confirmation_sent_at', kind: 'confirmation_token' },
};

/** A freshly issued token: the code for the mail and the hash for the link. */
export interface IssuedToken {
  otp: string;
  hashedToken: string;
}

const hashToken = (email: string, otp: string) => createHash('sha224').update(email + otp).digest('hex');

/** Issues a new token of this type for the user, replacing any previous one. */
export async function issueToken(db: Db, user: UserRow, type: VerificationType): Promise<IssuedToken> {
  const email = user.email ?? '';
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const hashedToken = hashToken(email, otp);
  const { column, sentAt, kind } = TOKEN_COLUMN[type];
  await db.query(`update auth.users set ${column} = $2, ${sentAt} = now(), updated_at = now() where id = $1`, [user.id, hashedToken]);
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to)
     values ($1, $2, $3, $4, $5)
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
       created_at = now(), updated_at = now()`,
    [randomUUID(), user.id, kind, hashedToken, email],
  );
  await resetWrongCodes(db, user.id, kind);
  return { otp, hashedToken };
}

/** The verify URL GoTrue puts in mails (and returns as `action_link`). */
export function actionLink(apiUrl: string, hashedToken: string, type: VerificationType, redirectTo: string): string {
  const query = new URLSearchParams({ token: hashedToken, type, redirect_to: redirectTo });
  return `${apiUrl}/auth/v1/verify?${query}`;
}

/** What `/verify` was given. `email` is GoTrue's type for any emailed code. */
export interface VerifyInput {
  type: string;
  tokenHash?: string;
  email?: string;
  token?: string;
}

/**
 * Consumes a token and returns its user: the token is cleared, the email counts as confirmed (the user
 * proved they read mail sent to it). Unknown, used or expired tokens fail with GoTrue's `otp_expired`; a
 * wrong code is counted (and the failure committed) before it fails.
 */
export async function consumeToken(db: Db, input: VerifyInput): Promise<{ user: UserRow; type: VerificationType }> {
  const types: VerificationType[] =
    input.type === 'email' ? ['signup', 'invite', 'magiclink', 'recovery'] : isVerificationType(input.type) ? [input.type] : [];
  if (types.length === 0) throw authErrors.validation(`Verify requires a verification type`);
  if (input.tokenHash) {
    const consumed = await consumeHash(db, types, input.tokenHash);
    if (!consumed) throw authErrors.otpExpired();
    return consumed;
  }
  if (!input.email || !input.token) throw authErrors.validation('Verify requires either a token or a token hash');
  const user = await findUserByEmail(db, input.email);
  if (!user) throw authErrors.otpExpired();
  const consumed = await consumeHash(db, types, hashToken(user.email ?? '', input.token), user.id);
  if (consumed) return consumed;
  await countWrongCode(db, user.id, types);
  throw new CommitWithError(authErrors.otpExpired());
}

/** Clears the first unexpired token of the given types that has this hash; returns its user and type. */
async function consumeHash(
  db: Db,
  types: VerificationType[],
  hash: string,
  userId?: string,
): Promise<{ user: UserRow; type: VerificationType } | undefined> {
  for (const type of types) {
    const { column, sentAt, kind } = TOKEN_COLUMN[type];
    const { rows } = await db.query<UserRow>(
      `update auth.users set ${column} = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
        where ${column} = $1 and ${sentAt} > now() - make_interval(secs => $2) and ($3::uuid is null or id = $3)
        returning *`,
      [hash, TOKEN_TTL_SECONDS, userId ?? null],
    );
    const user = rows[0];
    if (user) {
      await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [user.id, kind]);
      await resetWrongCodes(db, user.id, kind);
      return { user, type };
    }
  }
  return undefined;
}

/**
 * Counts a wrong code against each outstanding token the request could have meant (type `email` covers
 * both kinds); a token whose count reaches MAX_WRONG_CODES is cleared, so no code opens it any more. The
 * upsert increments atomically, so parallel guesses cannot slip past the limit.
 */
async function countWrongCode(db: Db, userId: string, types: VerificationType[]): Promise<void> {
  const kinds = new Map(types.map((type) => [TOKEN_COLUMN[type].kind, TOKEN_COLUMN[type].column]));
  for (const [kind, column] of kinds) {
    const { rowCount } = await db.query(`select 1 from auth.users where id = $1 and coalesce(${column}, '') <> '' for update`, [userId]);
    if (rowCount === 0) continue;
    const { rows } = await db.query<{ failed_attempts: number }>(
      `insert into local_dev.verification_attempts (user_id, token_type, failed_attempts, updated_at) values ($1, $2, 1, now())
       on conflict (user_id, token_type) do update
         set failed_attempts = verification_attempts.failed_attempts + 1, updated_at = now()
       returning failed_attempts`,
      [userId, kind],
    );
    if (rows[0]!.failed_attempts >= MAX_WRONG_CODES) {
      await db.query(`update auth.users set ${column} = '', updated_at = now() where id = $1`, [userId]);
      await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [userId, kind]);
    }
  }
}

/** Forgets the wrong codes counted against a user's token of one kind (a new token, or the right code). */
async function resetWrongCodes(db: Db, userId: string, kind: string): Promise<void> {
  await db.query('delete from local_dev.verification_attempts where user_id = $1 and token_type = $2', [userId, kind]);
}

function isVerificationType(type: string): type is VerificationType {
  return type in TOKEN_COLUMN;
}

/** GoTrue's default mail templates (subject, HTML), by verification type. */
const TEMPLATES: Record<VerificationType, { subject: string; heading: string; body: string; action: string }> = {
  recovery: { subject: 'Reset Your Password', heading: 'Reset Password', body: 'Follow this link to reset the password for your user:', action: 'Reset Password' },
  invite: { subject: 'You have been invited', heading: 'You have been invited', body: 'You have been invited to create a user on {site}. Follow this link to accept the invite:', action: 'Accept the invite' },
  magiclink: { subject: 'Your Magic Link', heading: 'Magic Link', body: 'Follow this link to login:', action: 'Log In' },
  signup: { subject: 'Confirm Your Signup', heading: 'Confirm your signup', body: 'Follow this link to confirm your user:', action: 'Confirm your mail' },
};

/** Writes the mail GoTrue would send for this token into the outbox. */
export async function mailToken(db: Db, to: string, type: VerificationType, link: string, otp: string, siteUrl: string): Promise<void> {
  const t = TEMPLATES[type];
  const body = t.body.replace('{site}', siteUrl);
  await storeMail(db, {
    to,
    subject: t.subject,
    type,
    link,
    text: `${t.heading}\n\n${body}\n${link}\n\nAlternatively, enter the code: ${otp}\n`,
    html: `<h2>${t.heading}</h2>\n<p>${escapeHtml(body)}</p>\n<p><a href="${escapeHtml(link)}">${t.action}</a></p>\n<p>Alternatively, enter the code: ${otp}</p>\n`,
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
