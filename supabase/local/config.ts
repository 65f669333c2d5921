/**
 * The local backend's Auth settings, read from `supabase/config.toml`: the file `supabase start` and
 * `supabase config push` read, so the embedded backend and Supabase's own stack behave alike from one place.
 * Only the keys the local backend implements are read; a missing key takes the Supabase CLI's default.
 *
 *   [auth] site_url                  GoTrue's SITE_URL: where links lead by default
 *   [auth] additional_redirect_urls  GoTrue's URI_ALLOW_LIST: other allowed `redirect_to` targets
 *   [auth] enable_signup             GoTrue's DISABLE_SIGNUP, inverted: public sign-up (POST /signup, OTP
 *                                    sign-up of unknown addresses); admin endpoints create users regardless
 *   [auth.email] enable_signup       GoTrue's EXTERNAL_EMAIL_ENABLED: despite its name the switch for the whole
 *                                    email provider, so `false` also refuses email + password sign-in,
 *                                    recovery and magic links (the CLI maps it so, see the comment in config.toml)
 *
 * The environment variables SITE_URL and ADDITIONAL_REDIRECT_URLS (comma-separated) override the file, as
 * they did before the file was read.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'smol-toml';
import { REPO_ROOT } from './postgres.ts';

/** The project's Supabase configuration. */
export const DEFAULT_CONFIG_FILE = join(REPO_ROOT, 'supabase', 'config.toml');

/** The Auth settings the local backend applies. */
export interface AuthSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
  /** `[auth] enable_signup = false`. */
  disableSignup: boolean;
  /** `[auth.email] enable_signup`. */
  emailEnabled: boolean;
}

// The Supabase CLI's defaults for a config.toml that leaves a key out.
const CLI_DEFAULTS = {
  site_url: 'http://127.0.0.1:3000',
  additional_redirect_urls: ['https://127.0.0.1:3000'],
  enable_signup: true,
  email_enable_signup: true,
};

/**
 * Reads the Auth settings from a config.toml (default: the project's). Fails with the file's name when it
 * cannot be read or parsed, or a key has the wrong type: a backend silently running on defaults would
 * let sign-up in while the file says it is off.
 */
export function loadAuthSettings(file: string = DEFAULT_CONFIG_FILE, env: NodeJS.ProcessEnv = process.env): AuthSettings {
  let document: Record<string, unknown>;
  try {
    document = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the Auth settings from ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const auth = table(document, 'auth', file);
  const email = table(auth, 'email', file, 'auth.email');
  const fromEnv = env.ADDITIONAL_REDIRECT_URLS?.split(',').map((url) => url.trim()).filter(Boolean);
  return {
    siteUrl: env.SITE_URL || setting(auth, 'site_url', 'string', CLI_DEFAULTS.site_url, file, 'auth'),
    additionalRedirectUrls: fromEnv ?? stringArray(auth, 'additional_redirect_urls', CLI_DEFAULTS.additional_redirect_urls, file),
    disableSignup: !setting(auth, 'enable_signup', 'boolean', CLI_DEFAULTS.enable_signup, file, 'auth'),
    emailEnabled: setting(email, 'enable_signup', 'boolean', CLI_DEFAULTS.email_enable_signup, file, 'auth.email'),
  };
}

function table(parent: Record<string, unknown>, key: string, file: string, name = key): Record<string, unknown> {
  const value = parent[key];
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${file}: [${name}] must be a table`);
  return value as Record<string, unknown>;
}

function setting<T>(section: Record<string, unknown>, key: string, type: 'string' | 'boolean', fallback: T, file: string, name: string): T {
  const value = section[key];
  if (value === undefined) return fallback;
  if (typeof value !== type) throw new Error(`${file}: ${name}.${key} must be a ${type}`);
  return value as T;
}

function stringArray(section: Record<string, unknown>, key: string, fallback: string[], file: string): string[] {
  const value = section[key];
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`${file}: auth.${key} must be an array of strings`);
  return value;
}

/** One `[storage.buckets.<name>]` table: the bucket the Supabase CLI creates and fills on `supabase seed buckets`. */
export interface SeedBucket {
  id: string;
  public: boolean;
  /** Bytes, or a string like "50MiB" as the CLI accepts. */
  fileSizeLimit: number | string | null;
  allowedMimeTypes: string[] | null;
  /** Folder whose files are uploaded (relative to the config file's folder), or null. */
  objectsPath: string | null;
}

/** The storage settings: `[storage] enabled`, the global `file_size_limit` and the buckets to seed on a new database. */
export function loadStorageSettings(file: string = DEFAULT_CONFIG_FILE): { enabled: boolean; fileSizeLimit: number | string; buckets: SeedBucket[] } {
  const document = parse(readFileSync(file, 'utf8'));
  const storage = table(document, 'storage', file);
  const enabled = setting(storage, 'enabled', 'boolean', true, file, 'storage');
  // The CLI's default global limit; a bucket's own limit can only be smaller.
  const fileSizeLimit = typeof storage.file_size_limit === 'number' ? storage.file_size_limit : setting(storage, 'file_size_limit', 'string', '50MiB', file, 'storage');
  const buckets = Object.entries(table(storage, 'buckets', file, 'storage.buckets')).map(([id, value]) => {
    const bucket = table({ [id]: value }, id, file, `storage.buckets.${id}`);
    const limit = bucket.file_size_limit;
    if (limit !== undefined && typeof limit !== 'number' && typeof limit !== 'string') throw new Error(`${file}: storage.buckets.${id}.file_size_limit must be a number or a string`);
    const mimes = bucket.allowed_mime_types;
    if (mimes !== undefined && (!Array.isArray(mimes) || !mimes.every((m) => typeof m === 'string'))) {
      throw new Error(`${file}: storage.buckets.${id}.allowed_mime_types must be an array of strings`);
    }
    const objectsPath = setting<string | null>(bucket, 'objects_path', 'string', null, file, `storage.buckets.${id}`);
    return {
      id,
      public: setting(bucket, 'public', 'boolean', false, file, `storage.buckets.${id}`),
      fileSizeLimit: (limit as number | string | undefined) ?? null,
      allowedMimeTypes: (mimes as string[] | undefined) ?? null,
      objectsPath: objectsPath === null ? null : resolve(dirname(file), objectsPath),
    };
  });
  return { enabled, fileSizeLimit, buckets };
}
