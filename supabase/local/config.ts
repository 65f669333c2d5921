/**
 * The local backend's Auth settings, read from `supabase/config.toml`: the same file `supabase start` and
 * `supabase config push` use, so the local backend and a hosted project are configured in one place.
 * SITE_URL and ADDITIONAL_REDIRECT_URLS (comma-separated) still override, for tests and odd setups.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { REPO_ROOT } from './postgres.ts';

/** What the Auth handler needs from the configuration. */
export interface AuthSettings {
  /** Where links lead by default. */
  siteUrl: string;
  /** Other allowed `redirect_to` origins. */
  additionalRedirectUrls: string[];
  /** `[auth] enable_signup` and `[auth.email] enable_signup`: both must be true for public sign-up. */
  enableSignup: boolean;
}

const CONFIG_FILE = join(REPO_ROOT, 'supabase', 'config.toml');

/** The Auth settings of `supabase/config.toml`, with the environment's overrides. */
export function readAuthSettings(env: Record<string, string | undefined> = process.env, file: string = CONFIG_FILE): AuthSettings {
  const auth = (parse(readFileSync(file, 'utf8')).auth ?? {}) as {
    site_url?: string;
    additional_redirect_urls?: string[];
    enable_signup?: boolean;
    email?: { enable_signup?: boolean };
  };
  return {
    siteUrl: env.SITE_URL ?? auth.site_url ?? 'http://localhost:8888',
    additionalRedirectUrls: env.ADDITIONAL_REDIRECT_URLS?.split(',').filter(Boolean) ?? auth.additional_redirect_urls ?? [],
    // Supabase's defaults are true for both.
    enableSignup: (auth.enable_signup ?? true) && (auth.email?.enable_signup ?? true),
  };
}
