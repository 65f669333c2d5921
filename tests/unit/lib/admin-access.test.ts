import { describe, expect, it } from 'vitest';
import { isActiveAdmin, isActiveMember } from '../../../src/lib/admin-access';
import { blogReturnPath } from '../../../src/lib/blog-urls';

describe('isActiveAdmin and isActiveMember', () => {
  it.each([
    [{ role: 'admin', is_active: true, organization_id: 'o' }, true, true],
    [{ role: 'admin', is_active: false, organization_id: 'o' }, false, false],
    [{ role: 'editor', is_active: true, organization_id: 'o' }, false, true],
    [{ role: 'editor', is_active: false, organization_id: 'o' }, false, false],
    [{ role: 'viewer', is_active: true, organization_id: null }, false, true],
    [{ role: 'owner', is_active: true, organization_id: 'o' }, false, false],
    [null, false, false],
  ])('%j → admin %s, member %s', (profile, admin, member) => {
    expect(isActiveAdmin(profile)).toBe(admin);
    expect(isActiveMember(profile)).toBe(member);
  });
});

describe('blogReturnPath', () => {
  it.each([
    ['/admin/blog', '/admin/blog'],
    ['/admin/blog/new', '/admin/blog/new'],
    ['/admin/blog/edit/40000000-0000-4000-8000-000000000001', '/admin/blog/edit/40000000-0000-4000-8000-000000000001'],
    ['/admin', null],
    ['/admin/blogger', null],
    ['https://evil.test/admin/blog', null],
    ['/admin/blog?x=https://evil.test', null],
    ['javascript:alert(1)', null],
    [null, null],
  ])('%s → %s', (next, expected) => {
    expect(blogReturnPath(next)).toBe(expected);
  });
});
