import { describe, expect, it } from 'vitest';
import { chooseSiteOrganization, listOrganizations } from '../../../src/lib/organizations';
import { FALLBACK_ORGANIZATION, type Organization } from '../../../src/lib/host-match';

const org = (slug: string, domain: string | null): Organization => ({ id: `id-${slug}`, name: slug, slug, domain, settings: {} });
const organizations = [org('scale-pro', 'scalepromarketing.com'), org('acme', 'acme.com')];

describe('chooseSiteOrganization', () => {
  it.each<[Record<string, string>, string]>([
    [{ SITE_ORG: 'acme' }, 'acme'],
    [{ SITE_ORG: 'acme', URL: 'https://scalepromarketing.com' }, 'acme'],
    [{ URL: 'https://www.acme.com' }, 'acme'],
    [{ DEPLOY_PRIME_URL: 'https://acme.com' }, 'acme'],
    [{ URL: 'https://acme-site.netlify.app' }, 'scale-pro'],
    [{ URL: 'https://unknown.example.org' }, 'scale-pro'],
    [{}, 'scale-pro'],
  ])('%j → %s', (env, slug) => expect(chooseSiteOrganization(organizations, env).slug).toBe(slug));

  it('falls back to the synthetic organization when the database has no match', () => {
    expect(chooseSiteOrganization([org('acme', 'acme.com')], {})).toBe(FALLBACK_ORGANIZATION);
  });

  it('refuses a SITE_ORG that names no organization', () => {
    expect(() => chooseSiteOrganization(organizations, { SITE_ORG: 'nope' })).toThrow(/SITE_ORG=nope names no organization/);
  });
});

describe('listOrganizations', () => {
  it('fails with the address when the database cannot be reached', { timeout: 30_000 }, async () => {
    // Port 9 (discard) has no listener here: a real refused connection, not a stub.
    await expect(listOrganizations({ PUBLIC_SUPABASE_URL: 'http://127.0.0.1:9' })).rejects.toThrow(/Cannot read organizations from http:\/\/127\.0\.0\.1:9/);
  });
});
