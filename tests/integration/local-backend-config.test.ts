/**
 * The local backend takes its Auth settings from a config.toml (`--config`, default supabase/config.toml):
 * instances started here with other files show that each key is read and applied, that SITE_URL and
 * ADDITIONAL_REDIRECT_URLS in the environment override the file, and that a broken file stops the start.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { startTestBackend, uniqueEmail, type TestBackend } from './support/local-backend-instance.ts';

const PROJECT_CONFIG = resolve(import.meta.dirname, '../../supabase/config.toml');

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'local-backend-config-'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Writes a config.toml with an [auth] section (and [auth.email] when given) and returns its path. */
function writeConfig(name: string, auth: string, email = ''): string {
  const file = join(work, `${name}.toml`);
  writeFileSync(file, `project_id = "config-test"\n\n[auth]\n${auth}\n${email ? `\n[auth.email]\n${email}\n` : ''}`);
  return file;
}

const settingsOf = async (backend: TestBackend) =>
  (await fetch(`${backend.apiUrl}/auth/v1/settings`, { headers: { apikey: LOCAL_SUPABASE.anonKey } })).json();

/** Where a generated link leads when the given redirect_to is asked for (or none). */
async function linkTarget(backend: TestBackend, redirectTo?: string): Promise<string> {
  const email = uniqueEmail('target');
  const { data, error } = await backend.service().auth.admin.generateLink({ type: 'magiclink', email, options: { redirectTo } });
  expect(error).toBeNull();
  return data.properties!.redirect_to;
}

describe('the project config', () => {
  it('turns public sign-up off and keeps the email provider on', () => {
    const text = readFileSync(PROJECT_CONFIG, 'utf8');
    const [auth, email] = text.split(/^\[auth\.email\]$/m);
    expect(auth!.split(/^\[auth\]$/m)[1]).toMatch(/^enable_signup = false$/m);
    expect(email).toMatch(/^enable_signup = true$/m);
  });
});

describe('a config with sign-up on and its own site URL', () => {
  let backend: TestBackend;
  beforeAll(() => {
    const config = writeConfig(
      'signup-on',
      'site_url = "http://localhost:5555"\nadditional_redirect_urls = ["https://app.example.test", "https://*.preview.example.test/**"]\nenable_signup = true',
    );
    backend = startTestBackend({ config });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('reports disable_signup: false', async () => {
    expect(await settingsOf(backend)).toMatchObject({ disable_signup: false, external: { email: true } });
  });

  it('signs a new address up with POST /signup', async () => {
    const email = uniqueEmail('signup-on');
    const { data, error } = await backend.anon().auth.signUp({ email, password: 'signed-up-1' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
    expect(await backend.sql('select 1 from auth.users where email = $1', [email])).toHaveLength(1);
  });

  it('signs an unknown address up through POST /otp and mails the signup link', async () => {
    const email = uniqueEmail('otp-on');
    expect((await backend.anon().auth.signInWithOtp({ email })).error).toBeNull();
    expect(await backend.outbox(email)).toEqual([expect.objectContaining({ type: 'signup' })]);
  });

  it('takes site_url and additional_redirect_urls from the file', async () => {
    expect(await linkTarget(backend)).toBe('http://localhost:5555');
    expect(await linkTarget(backend, 'https://app.example.test/welcome')).toBe('https://app.example.test/welcome');
    // The project's own entries are not in this file.
    expect(await linkTarget(backend, 'http://localhost:4321/auth')).toBe('http://localhost:5555');
    // Glob entries (GoTrue's, for hosted preview deploys) are skipped, not matched.
    expect(await linkTarget(backend, 'https://pr-1.preview.example.test/')).toBe('http://localhost:5555');
  });
});

describe('a config with the email provider off, SITE_URL and ADDITIONAL_REDIRECT_URLS in the environment', () => {
  let backend: TestBackend;
  beforeAll(() => {
    const config = writeConfig('email-off', 'site_url = "http://localhost:5555"\nenable_signup = true', 'enable_signup = false');
    backend = startTestBackend({ config, env: { SITE_URL: 'http://localhost:7777', ADDITIONAL_REDIRECT_URLS: 'https://one.example.test, https://two.example.test' } });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('reports the email provider off', async () => {
    expect(await settingsOf(backend)).toMatchObject({ disable_signup: false, external: { email: false } });
  });

  // Why the project keeps [auth.email] enable_signup = true: GoTrue reads it as the email provider switch.
  it('refuses email + password sign-in, recovery, magic links and sign-up with email_provider_disabled', async () => {
    const email = uniqueEmail('email-off');
    expect((await backend.service().auth.admin.createUser({ email, password: 'email-off-1', email_confirm: true })).error).toBeNull();
    const signIn = await backend.anon().auth.signInWithPassword({ email, password: 'email-off-1' });
    expect([signIn.error?.status, signIn.error?.code, signIn.error?.message]).toEqual([422, 'email_provider_disabled', 'Email logins are disabled']);
    const recover = await backend.anon().auth.resetPasswordForEmail(email);
    expect([recover.error?.status, recover.error?.code]).toEqual([400, 'email_provider_disabled']);
    const otp = await backend.anon().auth.signInWithOtp({ email });
    expect([otp.error?.status, otp.error?.code]).toEqual([422, 'email_provider_disabled']);
    const signUp = await backend.anon().auth.signUp({ email: uniqueEmail('email-off-new'), password: 'email-off-2' });
    expect([signUp.error?.status, signUp.error?.code, signUp.error?.message]).toEqual([400, 'email_provider_disabled', 'Email signups are disabled']);
    expect(await backend.outbox(email)).toEqual([]);
  });

  it('lets SITE_URL and ADDITIONAL_REDIRECT_URLS override the file', async () => {
    expect(await linkTarget(backend)).toBe('http://localhost:7777');
    expect(await linkTarget(backend, 'https://two.example.test/x')).toBe('https://two.example.test/x');
    expect(await linkTarget(backend, 'http://localhost:5555/x')).toBe('http://localhost:7777');
  });
});

describe('a broken config', () => {
  it.each([
    ['is not TOML', 'broken-syntax.toml', '[auth\nsite_url = ', /Cannot read the Auth settings from .*broken-syntax\.toml/],
    ['has a wrongly typed key', 'broken-type.toml', '[auth]\nenable_signup = "no"\n', /broken-type\.toml: auth\.enable_signup must be a boolean/],
  ])('stops the start when it %s', (_label, name, text, message) => {
    const file = join(work, name);
    writeFileSync(file, text);
    expect(() => startTestBackend({ config: file })).toThrow(message);
  });
});
