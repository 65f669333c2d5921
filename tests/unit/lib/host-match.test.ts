import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ORGANIZATION_SLUG,
  FALLBACK_ORGANIZATION,
  isLocalOrPreviewHost,
  matchOrganization,
  normalizeHost,
  type Organization,
} from '../../../src/lib/host-match';

const org = (slug: string, domain: string | null): Organization => ({ id: `id-${slug}`, name: slug, slug, domain, settings: {} });
const organizations = [org('scale-pro', 'scalepromarketing.com'), org('acme', 'acme.com'), org('peach', null)];

describe('matchOrganization', () => {
  it.each<[string, string, boolean, string | null]>([
    // local and preview hosts show the default organization...
    ['localhost:4321', '/', false, 'scale-pro'],
    ['127.0.0.1:8888', '/services', false, 'scale-pro'],
    ['site.localhost', '/', false, 'scale-pro'],
    ['acme-site.netlify.app', '/', false, 'scale-pro'],
    ['deploy-preview-42--acme-site.netlify.app', '/blog', false, 'scale-pro'],
    ['deploy-preview-7.example.dev', '/', false, 'scale-pro'],
    // ...unless a signed-in user is on /admin, whose own choice stands
    ['localhost:8888', '/admin', true, null],
    ['localhost:8888', '/admin/blog', true, null],
    ['localhost:8888', '/admin', false, 'scale-pro'],
    ['localhost:8888', '/administrator', true, 'scale-pro'],
    // other hosts: exact domain, parent domain, slug in host
    ['acme.com', '/', false, 'acme'],
    ['ACME.com:443', '/', false, 'acme'],
    ['www.acme.com', '/', false, 'acme'],
    ['blog.eu.acme.com', '/', false, 'acme'],
    ['peach.example.org', '/', false, 'peach'],
    ['notacme.co', '/', false, 'acme'],
    ['scalepromarketing.com', '/', false, 'scale-pro'],
    ['unknown.example.org', '/', false, null],
    ['acme.com.evil.org', '/', false, 'acme'],
  ])('%s %s (signed in: %s) → %s', (host, path, signedIn, expected) => {
    expect(matchOrganization({ host, path, signedIn, organizations })?.slug ?? null).toBe(expected);
  });

  it('prefers an exact domain over a parent domain and a slug in the host', () => {
    const list = [org('shop', 'example.com'), org('store', 'shop.example.com')];
    expect(matchOrganization({ host: 'shop.example.com', path: '/', signedIn: false, organizations: list })?.slug).toBe('store');
  });

  it('selects nothing on a local host when the default organization is missing', () => {
    expect(matchOrganization({ host: 'localhost', path: '/', signedIn: false, organizations: [org('acme', 'acme.com')] })).toBeNull();
  });
});

describe('host helpers', () => {
  it.each([['Acme.COM:8080', 'acme.com'], ['[::1]:8888', '[::1]'], [' localhost ', 'localhost']])('normalizes %s to %s', (host, name) =>
    expect(normalizeHost(host)).toBe(name),
  );

  it.each([['localhost', true], ['[::1]:3000', true], ['x.netlify.app', true], ['acme.com', false], ['netlify.app.acme.com', false]])(
    '%s is local or preview: %s',
    (host, expected) => expect(isLocalOrPreviewHost(host)).toBe(expected),
  );

  it('has the fallback organization of the spec', () => {
    expect(FALLBACK_ORGANIZATION).toEqual({ id: 'fallback', name: 'Scale Pro Marketing', slug: DEFAULT_ORGANIZATION_SLUG, domain: null, settings: {} });
    expect(DEFAULT_ORGANIZATION_SLUG).toBe('scale-pro');
  });
});
