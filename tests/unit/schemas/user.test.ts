import { describe, expect, it } from 'vitest';
import { CreateUserSchema, InvitationActionSchema, InvitationSchema, MemberEditSchema, MemberPasswordResetSchema, ProfileDetailsSchema, RoleSchema } from '../../../src/schemas/user.ts';

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

describe('MemberEditSchema', () => {
  it('turns blank name and phone into nothing (the database clears them)', () => {
    expect(MemberEditSchema.parse({ full_name: '  ', phone: '', role: 'editor' })).toEqual({ role: 'editor' });
  });
  it('trims the name and keeps a valid phone', () => {
    expect(MemberEditSchema.parse({ full_name: ' Ana Lee ', phone: '+1 555 0100', role: 'viewer' })).toEqual({ full_name: 'Ana Lee', phone: '+1 555 0100', role: 'viewer' });
  });
  it.each([
    ['a bad phone', { phone: 'call me', role: 'viewer' }],
    ['a long name', { full_name: 'x'.repeat(121), role: 'viewer' }],
    ['no role', { full_name: 'Ana' }],
  ])('refuses %s', (_case, input) => expect(MemberEditSchema.safeParse(input).success).toBe(false));
});

describe('InvitationActionSchema and MemberPasswordResetSchema', () => {
  const id = '50000000-0000-4000-8000-000000000001';
  it.each(['resend', 'revoke'])('accepts %s', (action) => expect(InvitationActionSchema.parse({ invitation_id: id, action })).toEqual({ invitation_id: id, action }));
  it('refuses other actions and ids that are not uuids', () => {
    expect(InvitationActionSchema.safeParse({ invitation_id: id, action: 'accept' }).success).toBe(false);
    expect(InvitationActionSchema.safeParse({ invitation_id: 'x', action: 'resend' }).success).toBe(false);
    expect(MemberPasswordResetSchema.safeParse({ user_id: 'x' }).success).toBe(false);
  });
});
