import { describe, expect, it } from 'vitest';
import { brandText, DEFAULT_BRAND_TEXT, pageTitle } from '../../../../src/lib/site/brand';

describe('brandText', () => {
  it.each<[string | null | undefined, string]>([
    ['Scale Pro Marketing', 'SCALEPRO MARKETING'],
    ['Acme', 'ACME'],
    ['Peach State Dental Group', 'PEACHSTATE DENTAL GROUP'],
    ['  Scale Pro  ', 'SCALEPRO'],
    ['', DEFAULT_BRAND_TEXT],
    [null, DEFAULT_BRAND_TEXT],
    [undefined, DEFAULT_BRAND_TEXT],
  ])('%j → %s', (name, brand) => expect(brandText(name)).toBe(brand));

  it('defaults to SCALEPRO', () => expect(DEFAULT_BRAND_TEXT).toBe('SCALEPRO'));
});

describe('pageTitle', () => {
  it.each<[string, string, string]>([
    ['Admin Access', 'Evergreen Landscaping', 'Admin Access | Evergreen Landscaping'],
    ['Admin Dashboard', 'Scale Pro Marketing', 'Admin Dashboard | Scale Pro Marketing'],
    ['Edit Post', ' Acme ', 'Edit Post | Acme'],
  ])('%s of %j → %s', (page, name, title) => expect(pageTitle(page, name)).toBe(title));
});
