import { describe, expect, it, vi } from 'vitest';
import { chooseSiteOrganization, listOrganizations, localSiteOrganizationSlug } from '../../../src/lib/shown-organization';
import { FALLBACK_ORGANIZATION, type Organization } from '../../../src/lib/host-match';

const org = (slug: string, domain: string | null, domain_confirmed = true): Organization => ({ id: `id-${slug}`, name: slug, slug, domain, domain_confirmed, settings: {} });
const organizations = [org('scale-pro', 'scalepromarketing.com'), org('acme', 'acme.com'), org('evil-org', 'evil-org.net')];

/** What Netlify's own build of the production context sets. */
const production = { CONTEXT: 'production', NETLIFY: 'true' };
/** What `netlify serve` / `netlify build` on a machine set (checked against netlify-cli 27). */
const localNetlify = { CONTEXT: 'production', NETLIFY_LOCAL: 'true', DEPLOY_PRIME_URL: 'https://master--site-name.netlify.app' };

describe('chooseSiteOrganization', () => {
  it.each<[string, Record<string, string>, string]>([
    // SITE_ORG always wins.
    ['SITE_ORG', { SITE_ORG: 'acme' }, 'acme'],
    ['SITE_ORG over the host', { SITE_ORG: 'acme', URL: 'https://scalepromarketing.com' }, 'acme'],
    ['SITE_ORG in production', { ...production, SITE_ORG: 'acme', URL: 'https://acme-site.netlify.app' }, 'acme'],
    // Else the organization whose domain is the site's host, exactly.
    ['the exact host in production', { ...production, URL: 'https://acme.com' }, 'acme'],
    ['the exact host in any case, with a port', { ...production, URL: 'https://ACME.com:443/' }, 'acme'],
    ['the exact host in a deploy preview (URL is the site\'s)', { CONTEXT: 'deploy-preview', NETLIFY: 'true', URL: 'https://acme.com', DEPLOY_PRIME_URL: 'https://deploy-preview-4--acme.netlify.app' }, 'acme'],
    // Local builds and previews fall back to the default organization.
    ['no variables (a local build)', {}, 'scale-pro'],
    ['netlify serve on a machine', localNetlify, 'scale-pro'],
    ['a deploy preview whose host names no one', { CONTEXT: 'deploy-preview', NETLIFY: 'true', URL: 'https://acme-site.netlify.app' }, 'scale-pro'],
    ['a branch deploy whose host names no one', { CONTEXT: 'branch-deploy', NETLIFY: 'true', URL: 'https://unknown.example.org' }, 'scale-pro'],
    // A subdomain or a look-alike host never picks an organization by suffix, not even locally.
    ['a subdomain of a known domain, locally', { URL: 'https://www.acme.com' }, 'scale-pro'],
    ['a known domain under another organization\'s, locally', { URL: 'https://acme.com.evil-org.net' }, 'scale-pro'],
    ['only a deploy address, locally', { DEPLOY_PRIME_URL: 'https://acme.com' }, 'scale-pro'],
  ])('%s: %j → %s', (_case, env, slug) => expect(chooseSiteOrganization(organizations, env).slug).toBe(slug));

  it.each<[string, Record<string, string>]>([
    ['an unknown host', { ...production, URL: 'https://unknown.example.org' }],
    ['the netlify.app name', { ...production, URL: 'https://acme-site.netlify.app' }],
    ['a subdomain of a known domain', { ...production, URL: 'https://www.acme.com' }],
    ['a known domain under another organization\'s', { ...production, URL: 'https://scalepromarketing.com.evil-org.net' }],
    ['a host that only contains a slug', { ...production, URL: 'https://acme-marketing.example' }],
    ['a deploy address instead of the site\'s', { ...production, DEPLOY_PRIME_URL: 'https://acme.com' }],
    ['no URL', production],
  ])('fails a production build with %s, naming both ways to fix it', (_case, env) => {
    expect(() => chooseSiteOrganization(organizations, env)).toThrow(/production build.*SITE_ORG.*known: scale-pro, acme, evil-org.*domain/);
  });

  it('tells a production build the exact host its organization needs', () => {
    expect(() => chooseSiteOrganization(organizations, { ...production, URL: 'https://WWW.Acme.com' })).toThrow(
      /set the organization's domain to exactly "www\.acme\.com", the host of this site's URL \(https:\/\/WWW\.Acme\.com\)/,
    );
  });

  it('never picks an organization by a domain its admin set and the operator has not confirmed', () => {
    const steered = [org('scale-pro', 'scalepromarketing.com'), org('acme', 'acme.com'), org('evil-org', 'new-client.com', false)];
    expect(() => chooseSiteOrganization(steered, { ...production, URL: 'https://new-client.com' })).toThrow(/cannot tell which organization.*confirmed/);
    expect(chooseSiteOrganization(steered, { CONTEXT: 'deploy-preview', NETLIFY: 'true', URL: 'https://new-client.com' }).slug).toBe('scale-pro');
    // Control: confirmed, the same domain picks it.
    expect(chooseSiteOrganization([...steered.slice(0, 2), org('evil-org', 'new-client.com')], { ...production, URL: 'https://new-client.com' }).slug).toBe('evil-org');
  });

  it('falls back to the synthetic organization when a local build finds no default organization', () => {
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

describe('listOrganizations, row by row', () => {
  /** A client answering the organizations read with these rows, as PostgREST would. */
  const answering = (rows: unknown[]) => ({
    from: () => ({ select: () => ({ order: async () => ({ data: rows, error: null }) }) }),
  }) as unknown as Parameters<typeof listOrganizations>[1];

  it('leaves out a row that does not match, naming its organization and field, and keeps the others', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const good = { id: '10000000-0000-4000-8000-000000000001', name: 'Scale Pro', slug: 'scale-pro', domain: null, domain_confirmed: false };
    const broken = { id: '10000000-0000-4000-8000-000000000009', name: 'Broken', slug: 'broken', domain: 'not a domain', domain_confirmed: false };
    try {
      const organizations = await listOrganizations({ PUBLIC_SUPABASE_URL: 'http://127.0.0.1:9' }, answering([broken, good]));
      expect(organizations.map((org) => org.slug)).toEqual(['scale-pro']);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/Organization "broken" \(10000000-0000-4000-8000-000000000009\).*left out.*domain/);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('localSiteOrganizationSlug', () => {
  it('is SITE_ORG, else the default organization', () => {
    expect(localSiteOrganizationSlug({ SITE_ORG: 'evergreen-landscaping' })).toBe('evergreen-landscaping');
    expect(localSiteOrganizationSlug({ SITE_ORG: '  ' })).toBe('scale-pro');
    expect(localSiteOrganizationSlug({})).toBe('scale-pro');
  });
});
