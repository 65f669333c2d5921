import { describe, expect, it } from 'vitest';
import { isActiveAdmin } from '../../../src/lib/admin-access';

describe('isActiveAdmin', () => {
  it.each([
    [{ role: 'admin', is_active: true, organization_id: 'o' }, true],
    [{ role: 'admin', is_active: false, organization_id: 'o' }, false],
    [{ role: 'editor', is_active: true, organization_id: 'o' }, false],
    [{ role: 'viewer', is_active: true, organization_id: null }, false],
    [null, false],
  ])('%j → %s', (profile, expected) => {
    expect(isActiveAdmin(profile)).toBe(expected);
  });
});
