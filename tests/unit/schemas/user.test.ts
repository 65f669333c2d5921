import { describe, expect, it } from 'vitest';
import { CreateUserSchema, InvitationSchema, ProfileDetailsSchema, RoleSchema } from '../../../src/schemas/user.ts';

describe('RoleSchema', () => {
  it.each(['viewer', 'editor', 'admin'])('accepts %s', (role) => expect(RoleSchema.parse(role)).toBe(role));
  it.each(['owner', 'Admin', ''])('refuses %j', (role) => expect(RoleSchema.safeParse(role).success).toBe(false));
});

describe('CreateUserSchema', () => {
  const valid = { email: 'New@Example.com', full_name: 'New Person', role: 'editor', password: 'temporary1' };
  it('normalizes the email', () => {
    expect(CreateUserSchema.parse(valid).email).toBe('new@example.com');
  });
  it.each([
    ['missing name', { ...valid, full_name: ' ' }],
    ['short password', { ...valid, password: 'short' }],
    ['bad role', { ...valid, role: 'owner' }],
    ['bad email', { ...valid, email: 'new' }],
  ])('refuses %s', (_case, input) => {
    expect(CreateUserSchema.safeParse(input).success).toBe(false);
  });
});

describe('InvitationSchema', () => {
  it('defaults the role to viewer', () => {
    expect(InvitationSchema.parse({ email: 'a@b.co' })).toEqual({ email: 'a@b.co', role: 'viewer' });
  });
});

describe('ProfileDetailsSchema', () => {
  it('drops blank fields and refuses non-http websites', () => {
    expect(ProfileDetailsSchema.parse({ full_name: 'A', bio: '' })).toEqual({ full_name: 'A' });
    expect(ProfileDetailsSchema.safeParse({ author_website: 'javascript:x' }).success).toBe(false);
  });
});
