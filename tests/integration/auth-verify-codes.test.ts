/**
 * Emailed six-digit codes (POST /auth/v1/verify with email, token and type) allow a few wrong guesses: the
 * fifth wrong code for the same user and kind of token invalidates the outstanding token, so the right code
 * fails too (otp_expired) until a new mail issues a fresh token, which also resets the count. The count is
 * kept in the database and survives a restart. (Stricter than hosted GoTrue, which only rate-limits
 * /verify per IP address; see supabase/local/auth/verification.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, uniqueEmail, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
beforeAll(() => {
  backend = startTestBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const MAX_WRONG_CODES = 5;

/** A confirmed user. */
async function confirmedUser(): Promise<{ email: string; id: string }> {
  const email = uniqueEmail('codes');
  const { data, error } = await backend.service().auth.admin.createUser({ email, password: 'codes-pass-1', email_confirm: true });
  expect(error).toBeNull();
  return { email, id: data.user!.id };
}

/** Asks for a recovery mail and returns the code in it. */
async function mailRecoveryCode(email: string): Promise<string> {
  expect((await backend.anon().auth.resetPasswordForEmail(email)).error).toBeNull();
  const [mail] = await backend.outbox(email);
  return /enter the code: (\d{6})/.exec(mail!.text)![1]!;
}

const wrongCode = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

/** Sends `count` different wrong codes and checks each is refused with otp_expired. */
async function guessWrong(email: string, code: string, count: number, type: 'recovery' | 'invite' | 'email' = 'recovery'): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const { error } = await backend.anon().auth.verifyOtp({ email, token: wrongCode(code, i), type });
    expect([error?.status, error?.code]).toEqual([403, 'otp_expired']);
  }
}

const verify = (email: string, token: string, type: 'recovery' | 'invite' | 'email' = 'recovery') => backend.anon().auth.verifyOtp({ email, token, type });

describe('wrong codes', () => {
  it(`the right code still works after ${MAX_WRONG_CODES - 1} wrong ones`, async () => {
    const { email } = await confirmedUser();
    const code = await mailRecoveryCode(email);
    await guessWrong(email, code, MAX_WRONG_CODES - 1);
    const { data, error } = await verify(email, code);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });

  it(`the ${MAX_WRONG_CODES}th wrong code invalidates the token: the right code then fails with otp_expired`, async () => {
    const { email, id } = await confirmedUser();
    const code = await mailRecoveryCode(email);
    await guessWrong(email, code, MAX_WRONG_CODES);
    const { data, error } = await verify(email, code);
    expect(data.session).toBeNull();
    expect([error?.status, error?.code, error?.message]).toEqual([403, 'otp_expired', 'Token has expired or is invalid']);
    const [user] = await backend.sql<{ recovery_token: string }>('select recovery_token from auth.users where id = $1', [id]);
    expect(user!.recovery_token).toBe('');
    expect(await backend.sql('select 1 from auth.one_time_tokens where user_id = $1', [id])).toEqual([]);
    expect(await backend.sql('select token_type::text, failed_attempts from local_dev.verification_attempts where user_id = $1', [id])).toEqual([
      { token_type: 'recovery_token', failed_attempts: MAX_WRONG_CODES },
    ]);
  });

  it('the link of the invalidated token fails too', async () => {
    const { email } = await confirmedUser();
    const code = await mailRecoveryCode(email);
    const [mail] = await backend.outbox(email);
    await guessWrong(email, code, MAX_WRONG_CODES);
    const response = await fetch(mail!.link, { redirect: 'manual' });
    expect(response.headers.get('location')).toMatch(/#error=access_denied&error_code=otp_expired/);
  });

  it('a new mail issues a fresh token that works, and resets the count', async () => {
    const { email, id } = await confirmedUser();
    await guessWrong(email, await mailRecoveryCode(email), MAX_WRONG_CODES);
    const fresh = await mailRecoveryCode(email);
    expect(await backend.sql('select 1 from local_dev.verification_attempts where user_id = $1', [id])).toEqual([]);
    // Without the reset these would be wrong codes 6 to 9.
    await guessWrong(email, fresh, MAX_WRONG_CODES - 1);
    expect((await verify(email, fresh)).error).toBeNull();
  });

  it('the right code resets the count for the next token', async () => {
    const { email } = await confirmedUser();
    const first = await mailRecoveryCode(email);
    await guessWrong(email, first, MAX_WRONG_CODES - 1);
    expect((await verify(email, first)).error).toBeNull();
    const second = await mailRecoveryCode(email);
    await guessWrong(email, second, MAX_WRONG_CODES - 1);
    expect((await verify(email, second)).error).toBeNull();
  });

  it('counts per kind of token: wrong recovery codes leave an outstanding invitation alone', async () => {
    const email = uniqueEmail('codes-invite');
    expect((await backend.service().auth.admin.inviteUserByEmail(email)).error).toBeNull();
    const inviteCode = /enter the code: (\d{6})/.exec((await backend.outbox(email))[0]!.text)![1]!;
    const recovery = await backend.service().auth.admin.generateLink({ type: 'recovery', email });
    const recoveryCode = recovery.data.properties!.email_otp;
    await guessWrong(email, recoveryCode, MAX_WRONG_CODES, 'recovery');
    expect((await verify(email, recoveryCode, 'recovery')).error?.code).toBe('otp_expired');
    expect((await verify(email, inviteCode, 'invite')).error).toBeNull();
  });

  it('counts per user: wrong codes for one user leave another user alone', async () => {
    const a = await confirmedUser();
    const b = await confirmedUser();
    const codeA = await mailRecoveryCode(a.email);
    const codeB = await mailRecoveryCode(b.email);
    await guessWrong(a.email, codeA, MAX_WRONG_CODES);
    expect((await verify(a.email, codeA)).error?.code).toBe('otp_expired');
    expect((await verify(b.email, codeB)).error).toBeNull();
  });

  it('parallel wrong codes cannot get past the limit', async () => {
    const { email } = await confirmedUser();
    const code = await mailRecoveryCode(email);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => verify(email, wrongCode(code, i + 1))));
    expect(results.every((r) => r.error?.code === 'otp_expired')).toBe(true);
    expect((await verify(email, code)).error?.code).toBe('otp_expired');
  });

  it('keeps the count in the database: it survives a restart', async () => {
    const { email } = await confirmedUser();
    const code = await mailRecoveryCode(email);
    await guessWrong(email, code, 3);
    await backend.restart();
    await guessWrong(email, wrongCode(code, 3), MAX_WRONG_CODES - 3);
    expect((await verify(email, code)).error?.code).toBe('otp_expired');
  });
});

describe('the count table', () => {
  it('is created on the next start of a cluster made before it existed', async () => {
    // The local backend's own schema belongs to the cluster's superuser, not to postgres.
    await backend.superuserSql('drop table local_dev.verification_attempts');
    await backend.restart();
    expect(await backend.sql(`select to_regclass('local_dev.verification_attempts')::text as name`)).toEqual([{ name: 'local_dev.verification_attempts' }]);
    const { email } = await confirmedUser();
    const code = await mailRecoveryCode(email);
    await guessWrong(email, code, MAX_WRONG_CODES);
    expect((await verify(email, code)).error?.code).toBe('otp_expired');
  });

  it('is out of reach of the API roles', async () => {
    const [grants] = await backend.sql(
      `select has_schema_privilege('anon', 'local_dev', 'usage') as anon, has_schema_privilege('authenticated', 'local_dev', 'usage') as authenticated`,
    );
    expect(grants).toEqual({ anon: false, authenticated: false });
  });
});
