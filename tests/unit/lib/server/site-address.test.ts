import { describe, expect, it } from 'vitest';
import { LOCAL_SITE_ADDRESS, siteAddress } from '../../../../src/lib/server/site-address';

const confirmed = { slug: 'acme', domain: 'www.acme.com', domain_confirmed: true };
const unconfirmed = { slug: 'acme', domain: 'www.acme.com', domain_confirmed: false };
const noDomain = { slug: 'acme', domain: null, domain_confirmed: false };
/** A hosted backend: its own URL and key (not the local demo key). */
const hosted = { SUPABASE_URL: 'https://ref.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'hosted-service-key' };

describe('siteAddress: where the links in mails lead', () => {
  it.each<[string, Parameters<typeof siteAddress>[0], Record<string, string>, string]>([
    ['SITE_URL first, as an origin', confirmed, { ...hosted, SITE_URL: 'https://mail.acme.com/some/path' }, 'https://mail.acme.com'],
    ['the local backend: the local site', confirmed, {}, LOCAL_SITE_ADDRESS],
    ['the local backend, served on another port (SITE_URL)', noDomain, { SITE_URL: 'http://localhost:9000' }, 'http://localhost:9000'],
    ['hosted: the confirmed domain over https', confirmed, hosted, 'https://www.acme.com'],
    ['hosted: the confirmed domain before Netlify\'s URL', confirmed, { ...hosted, URL: 'https://acme-site.netlify.app' }, 'https://www.acme.com'],
    ['hosted: an unconfirmed domain is not used; Netlify\'s URL is', unconfirmed, { ...hosted, URL: 'https://acme-site.netlify.app' }, 'https://acme-site.netlify.app'],
    ['hosted: no domain, Netlify\'s URL', noDomain, { ...hosted, URL: 'https://acme-site.netlify.app/' }, 'https://acme-site.netlify.app'],
  ])('%s', (_case, organization, env, expected) => {
    expect(siteAddress(organization, env)).toBe(expected);
  });

  it('fails with what to set when nothing names the site (never a guess)', () => {
    expect(() => siteAddress(unconfirmed, hosted)).toThrow(/No address for the links in mails of acme: set SITE_URL on the site, or have its domain confirmed/);
  });
});
