import { describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_SLUG, FALLBACK_ORGANIZATION, normalizeHost, organizationForHost, type Organization } from '../../../src/lib/host-match';

const org = (slug: string, domain: string | null): Organization => ({ id: `id-${slug}`, name: slug, slug, domain, settings: {} });
const organizations = [
  org('scale-pro', 'scalepromarketing.com'),
  org('acme', 'acme.com'),
  org('acme-blog', 'blog.acme.com'),
  org('peach', null),
  // An organization whose domain sits under another's host name, and one named like a public suffix.
  org('evil-org', 'evil-org.net'),
  org('com', 'com.example'),
];

describe('organizationForHost', () => {
  it.each<[string, string | null]>([
    // The exact domain, whatever the case, port or trailing dot.
    ['acme.com', 'acme'],
    ['ACME.com:443', 'acme'],
    ['acme.com.', 'acme'],
    ['scalepromarketing.com', 'scale-pro'],
    ['blog.acme.com', 'acme-blog'],
    // No parent-domain match: a subdomain is not its parent's unless it is that organization's domain.
    ['www.acme.com', null],
    ['shop.blog.acme.com', null],
    // No suffix match: another organization's (or anyone's) domain ending in a known one captures nothing.
    ['scalepromarketing.com.evil-org.net', null],
    ['acme.com.evil.org', null],
    ['www.youtube.com.evil-org.net', null],
    ['evilacme.com', null],
    // No slug-in-host match.
    ['notacme.co', null],
    ['peach.example.org', null],
    ['scale-pro.netlify.app', null],
    ['com.example.evil.test', null],
    // Hosts that name no one.
    ['unknown.example.org', null],
    ['localhost:4321', null],
    ['127.0.0.1:8888', null],
    ['', null],
  ])('%s → %s', (host, expected) => {
    expect(organizationForHost(host, organizations)?.slug ?? null).toBe(expected);
  });

  it('never matches an organization without a domain', () => {
    expect(organizationForHost('peach', [org('peach', null)])).toBeNull();
  });
});

describe('host helpers', () => {
  it.each([
    ['Acme.COM:8080', 'acme.com'],
    ['acme.com.', 'acme.com'],
    ['[::1]:8888', '[::1]'],
    [' localhost ', 'localhost'],
  ])('normalizes %s to %s', (host, name) => expect(normalizeHost(host)).toBe(name));

  it('has the built-in fallback organization', () => {
    expect(FALLBACK_ORGANIZATION).toEqual({ id: 'fallback', name: 'Scale Pro Marketing', slug: DEFAULT_ORGANIZATION_SLUG, domain: null, settings: {} });
    expect(DEFAULT_ORGANIZATION_SLUG).toBe('scale-pro');
  });
});
