import { describe, expect, it } from 'vitest';
import { backOfficeReturnPath } from '../../../src/lib/blog-urls';

describe('backOfficeReturnPath', () => {
  it.each([
    ['/admin/blog', '/admin/blog'],
    ['/admin/blog/new', '/admin/blog/new'],
    ['/admin/blog/edit/40000000-0000-4000-8000-000000000001', '/admin/blog/edit/40000000-0000-4000-8000-000000000001'],
    ['/admin', '/admin'],
    ['/admin/media', '/admin/media'],
    ['/admin/mediakit', null],
    ['/admin/profile', '/admin/profile'],
    ['/admin/profile/x', null],
    ['/admin/users', null],
    ['/admin/sites', '/admin/sites'],
    ['/admin/sites/x', null],
    ['/admin/sitesx', null],
    ['/admin/blogger', null],
    ['https://evil.test/admin/blog', null],
    ['/admin/blog?x=https://evil.test', null],
    ['/admin/authorize-application', '/admin/authorize-application'],
    ['/admin/authorize-application?app_name=Ulysses&success_url=https%3A%2F%2Fulysses.test%2Fcb', '/admin/authorize-application?app_name=Ulysses&success_url=https%3A%2F%2Fulysses.test%2Fcb'],
    ['/admin/authorize-application?a=b#x', null],
    ['/admin/authorize-applications', null],
    ['//evil.test/admin/authorize-application?x', null],
    ['javascript:alert(1)', null],
    [null, null],
  ])('%s → %s', (next, expected) => {
    expect(backOfficeReturnPath(next)).toBe(expected);
  });
});
