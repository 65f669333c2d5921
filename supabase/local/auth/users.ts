/**
 * Users in `auth.users` / `auth.identities`, read and written the way GoTrue does, and rendered in
 * GoTrue's user JSON. Rows inserted by seeds (often without identities, with NULL token columns) work too.
 */
import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type pg from 'pg';
import { authErrors } from './errors.ts';

/** GoTrue's default minimum password length. */
export const MIN_PASSWORD_LENGTH = 6;

type Db = pg.Pool | pg.PoolClient;

/** The `auth.users` columns this backend uses. */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/** GoTrue's user JSON (fields that are unset are omitted, as GoTrue's `omitempty` does). */
export async function userJson(db: Db, user: UserRow): Promise<Record<string, unknown>> {
  const { rows: identities } = await db.query<IdentityRow>(
    'select * from auth.identities where user_id = $1 order by created_at',
    [user.id],
  );
  return {
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map((i) => ({
      identity_id: i.id,
      id: i.provider_id,
      user_id: i.user_id,
      identity_data: i.identity_data,
      provider: i.provider,
      last_sign_in_at: iso(i.last_sign_in_at),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      email: i.email ?? undefined,
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: user.banned_until && user.banned_until > new Date() ? iso(user.banned_until) : undefined,
    is_anonymous: user.is_anonymous,
  };
}

/** The user with this id, or undefined. */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const { rows } = await db.query<UserRow>('select * from auth.users where id = $1', [id]);
  return rows[0];
}

/** The (non-SSO) user with this email, compared case-insensitively as GoTrue does. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    'select * from auth.users where lower(email) = lower($1) and is_sso_user = false limit 1',
    [email.trim()],
  );
  return rows[0];
}

/** Whether a ban is in force now. */
export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && user.banned_until > new Date();
}

/** GoTrue's bcrypt cost (Go's bcrypt.DefaultCost). */
const GOTRUE_HASH_COST = 10;

/**
 * The bcrypt cost of the passwords this instance stores: LOCAL_AUTH_HASH_COST (4, bcrypt's least, to 14), else
 * GoTrue's 10. The test suites start their backends with 4: their users sign up and sign in thousands of times, and
 * at 10 each hash took 85 ms of this machine's CPU in pure JavaScript (a minute of every integration run); a
 * check against a stored hash uses the cost written in that hash, so hashes of either cost keep working.
 */
export function passwordHashCost(env: Record<string, string | undefined> = process.env): number {
  const value = env.LOCAL_AUTH_HASH_COST;
  if (value === undefined || value === '') return GOTRUE_HASH_COST;
  const cost = Number(value);
  if (!Number.isInteger(cost) || cost < 4 || cost > 14) throw new Error(`LOCAL_AUTH_HASH_COST must be a whole number from 4 to 14, not "${value}"`);
  return cost;
}

/**
 * Hashes a password in GoTrue's format (`$2a$`, cost 10 unless LOCAL_AUTH_HASH_COST says otherwise), which
 * `extensions.crypt` also produces. bcryptjs labels its hashes `$2b$`; the computation is the same for passwords
 * under 255 bytes (the only difference between the two), so the label is changed to GoTrue's.
 */
export async function hashPassword(password: string): Promise<string> {
  if (new TextEncoder().encode(password).length > 72) throw authErrors.validation('Password cannot be longer than 72 characters');
  return (await bcrypt.hash(password, passwordHashCost())).replace(/^\$2b\$/, '$2a$');
}

/** Checks a password against a stored bcrypt hash; a user without a password never matches. */
export async function passwordMatches(user: UserRow, password: string): Promise<boolean> {
  if (!user.encrypted_password) return false;
  return bcrypt.compare(password, user.encrypted_password);
}

/** Rejects passwords GoTrue's default policy rejects. */
export function checkPasswordStrength(password: unknown): string {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) throw authErrors.weakPassword(MIN_PASSWORD_LENGTH);
  return password;
}

/** What a new user starts with. */
export interface NewUser {
  email: string;
  password?: string;
  emailConfirmed: boolean;
  invited?: boolean;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
}

/**
 * Creates a user and its `email` identity as GoTrue does: email lowercased, `app_metadata` with
 * provider `email` (merged with what the admin set), a bcrypt password hash when one is given.
 */
export async function createUser(db: Db, input: NewUser): Promise<UserRow> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw authErrors.validation('Unable to validate email address: invalid format');
  if (await findUserByEmail(db, email)) throw authErrors.emailExists();
  const id = randomUUID();
  const encryptedPassword = input.password === undefined ? '' : await hashPassword(checkPasswordStrength(input.password));
  const appMetadata = { provider: 'email', providers: ['email'], ...input.appMetadata };
  const { rows } = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
                             confirmation_token, recovery_token, email_change_token_new, email_change,
                             raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3,
             case when $4 then now() end, case when $5 then now() end, '', '', '', '', $6, $7, false, now(), now())
     returning *`,
    [id, email, encryptedPassword, input.emailConfirmed, input.invited ?? false, appMetadata, input.userMetadata ?? {}],
  );
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, 'email', now(), now(), now())`,
    [id, id, { sub: id, email, email_verified: false, phone_verified: false }],
  );
  return rows[0]!;
}

/** Changes to a user; each field is applied only when present. */
export interface UserChanges {
  email?: string;
  password?: string;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  emailConfirmed?: boolean;
  /** GoTrue's `ban_duration`: a Go duration such as `24h`, or `none` to lift a ban. */
  banDuration?: string;
}

/**
 * Applies changes as GoTrue does: metadata objects are merged into the stored ones (top-level keys,
 * a null value removes the key), a new password is hashed.
 */
export async function updateUser(db: Db, user: UserRow, changes: UserChanges): Promise<UserRow> {
  const sets: string[] = [];
  const values: unknown[] = [user.id];
  const set = (column: string, value: unknown) => {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  };
  if (changes.email !== undefined) {
    const email = changes.email.trim().toLowerCase();
    const other = await findUserByEmail(db, email);
    if (other && other.id !== user.id) throw authErrors.emailExists();
    set('email', email);
    await db.query(
      `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
        where user_id = $1 and provider = 'email'`,
      [user.id, email],
    );
  }
  if (changes.password !== undefined) set('encrypted_password', await hashPassword(checkPasswordStrength(changes.password)));
  if (changes.userMetadata !== undefined) set('raw_user_meta_data', mergeMetadata(user.raw_user_meta_data, changes.userMetadata));
  if (changes.appMetadata !== undefined) set('raw_app_meta_data', mergeMetadata(user.raw_app_meta_data, changes.appMetadata));
  if (changes.emailConfirmed) sets.push('email_confirmed_at = coalesce(email_confirmed_at, now())');
  if (changes.banDuration !== undefined) set('banned_until', banUntil(changes.banDuration));
  if (sets.length === 0) return user;
  const { rows } = await db.query<UserRow>(
    `update auth.users set ${sets.join(', ')}, updated_at = now() where id = $1 returning *`,
    values,
  );
  return rows[0]!;
}

function mergeMetadata(current: Record<string, unknown> | null, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };

/** Parses a Go duration (`876000h`, `1h30m`, `none`) into the time a ban ends, or null for no ban. */
export function banUntil(duration: string): Date | null {
  if (duration === 'none') return null;
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration) {
    throw authErrors.validation(`invalid format for ban duration: time: invalid duration "${duration}"`);
  }
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * DURATION_UNITS[p[2]!]!, 0);
  return new Date(Date.now() + ms);
}
