import { describe, expect, it } from 'vitest';
import { hashInvitationToken } from '../../../../src/lib/server/invitations';

describe('hashInvitationToken', () => {
  it('is the hex SHA-256 the seed stores (encode(digest(token, sha256), hex))', () => {
    expect(hashInvitationToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashInvitationToken('dev-invite-token-scale-pro')).toMatch(/^[0-9a-f]{64}$/);
  });
});
