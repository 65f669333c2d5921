import { describe, expect, it } from 'vitest';
import {
  AcceptInvitationSchema,
  InvitationTokenSchema,
  NewPasswordSchema,
  PasswordResetRequestSchema,
  SignInSchema,
} from '../../../src/schemas/auth';

/** The first issue's message and path, or null when the value is valid. */
function firstIssue(result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) {
  const issue = result.error?.issues[0];
  return result.success ? null : { message: issue?.message, path: issue?.path.join('.') };
}

describe('SignInSchema', () => {
  it('lower-cases and trims the address', () => {
    expect(SignInSchema.parse({ email: '  Admin@Scale-Pro.TEST ', password: 'x' })).toEqual({ email: 'admin@scale-pro.test', password: 'x' });
  });

  it.each([
    [{ email: 'not-an-email', password: 'x' }, 'Enter a valid email address'],
    [{ email: 'a@b.test', password: '' }, 'Password is required'],
    [{ email: 'a@b.test' }, undefined],
    [{ email: 'a@b.test', password: 'x', role: 'admin' }, undefined],
    [{ email: 'a@b.test', password: 'x'.repeat(73) }, undefined],
    [{ email: 'a@b.test', password: 'x', area: 'blog' }, undefined],
  ])('refuses %j', (input, message) => {
    const result = SignInSchema.safeParse(input);
    expect(result.success).toBe(false);
    if (message) expect(firstIssue(result)?.message).toBe(message);
  });
});

describe('PasswordResetRequestSchema', () => {
  it('needs an address', () => {
    expect(PasswordResetRequestSchema.safeParse({ email: 'someone@example.com' }).success).toBe(true);
    expect(PasswordResetRequestSchema.safeParse({ email: '' }).success).toBe(false);
  });
});

describe('NewPasswordSchema (its exact messages)', () => {
  it.each<[string, string, { message: string; path: string } | null]>([
    ['Abcdefg1', 'Abcdefg1', null],
    ['Abc1', 'Abc1', { message: 'Password must be at least 8 characters', path: 'newPassword' }],
    ['abcdefg1', 'abcdefg1', { message: 'Password must contain at least one uppercase letter', path: 'newPassword' }],
    ['ABCDEFG1', 'ABCDEFG1', { message: 'Password must contain at least one lowercase letter', path: 'newPassword' }],
    ['Abcdefgh', 'Abcdefgh', { message: 'Password must contain at least one number', path: 'newPassword' }],
    ['Abcdefg1', 'Abcdefg2', { message: "Passwords don't match", path: 'confirmPassword' }],
  ])('%s / %s', (newPassword, confirmPassword, expected) => {
    expect(firstIssue(NewPasswordSchema.safeParse({ newPassword, confirmPassword }))).toEqual(expected);
  });
});

describe('InvitationTokenSchema', () => {
  it.each([
    ['5f0c8a52-7a52-4b5e-9d3a-3f2b1f0f9a11', true],
    ['dev-invite-token-scale-pro', true],
    ['short', false],
    ['has space in it', false],
    ['../../etc/passwd', false],
    ['x'.repeat(201), false],
  ])('%s valid: %s', (token, valid) => {
    expect(InvitationTokenSchema.safeParse(token).success).toBe(valid);
  });
});

describe('AcceptInvitationSchema', () => {
  it('needs a name and a strong password, nothing else', () => {
    const valid = { token: 'dev-invite-token-scale-pro', full_name: ' Pat Doe ', password: 'Welcome2026' };
    expect(AcceptInvitationSchema.parse(valid)).toEqual({ ...valid, full_name: 'Pat Doe' });
    expect(firstIssue(AcceptInvitationSchema.safeParse({ ...valid, full_name: '  ' }))?.message).toBe('Full name is required');
    expect(firstIssue(AcceptInvitationSchema.safeParse({ ...valid, password: 'weak' }))?.path).toBe('password');
    expect(AcceptInvitationSchema.safeParse({ ...valid, role: 'admin' }).success).toBe(false);
  });
});
