/**
 * Which organization a host shows (spec section 4). Pure, so the build and the browser's organization
 * context share it (DESIGN.md decision 2).
 */
import type { Organization } from '../schemas/organization.ts';

export type { Organization };

/** Slug of the organization local and preview hosts show. */
export const DEFAULT_ORGANIZATION_SLUG = 'scale-pro';

/** Used when the database answered but holds no matching organization. */
export const FALLBACK_ORGANIZATION: Readonly<Organization> = Object.freeze({
  id: 'fallback',
  name: 'Scale Pro Marketing',
  slug: DEFAULT_ORGANIZATION_SLUG,
  domain: null,
  settings: {},
});

/** Strips the port and case: `Acme.COM:8080` → `acme.com`. */
export function normalizeHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.replace(/:\d+$/, '');
}

/** Development machines and Netlify previews, which show the default organization. */
export function isLocalOrPreviewHost(host: string): boolean {
  const name = normalizeHost(host);
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(name) ||
    name === '0.0.0.0' ||
    name.endsWith('.netlify.app') ||
    name.startsWith('deploy-preview-')
  );
}

export interface HostMatchInput {
  host: string;
  /** Path of the current page; `/admin` pages keep a signed-in user's own choice. */
  path: string;
  signedIn: boolean;
  organizations: readonly Organization[];
}

/**
 * The organization the host selects, or null when it selects none (no match, or an admin page on a local
 * host where the signed-in user's choice stands).
 */
export function matchOrganization({ host, path, signedIn, organizations }: HostMatchInput): Organization | null {
  const name = normalizeHost(host);
  if (isLocalOrPreviewHost(name)) {
    const adminPage = path === '/admin' || path.startsWith('/admin/');
    if (adminPage && signedIn) return null;
    return organizations.find((org) => org.slug === DEFAULT_ORGANIZATION_SLUG) ?? null;
  }
  const domainOf = (org: Organization) => org.domain?.trim().toLowerCase() || null;
  return (
    organizations.find((org) => domainOf(org) === name) ??
    organizations.find((org) => {
      const domain = domainOf(org);
      return domain !== null && name.endsWith(`.${domain}`);
    }) ??
    organizations.find((org) => org.slug !== '' && name.includes(org.slug.toLowerCase())) ??
    null
  );
}
