/**
 * Which organization a host names, and what stands in when none does. Pure, so the build
 * (src/lib/shown-organization.ts) and its unit tests use it without a database.
 */
import type { Organization } from '../schemas/organization.ts';

export type { Organization };

/** Slug of the organization local builds show when nothing names one. */
export const DEFAULT_ORGANIZATION_SLUG = 'scale-pro';

/** Used when the database answered but holds no matching organization. */
export const FALLBACK_ORGANIZATION: Readonly<Organization> = Object.freeze({
  id: 'fallback',
  name: 'Scale Pro Marketing',
  slug: DEFAULT_ORGANIZATION_SLUG,
  domain: null,
  settings: {},
});

/** Strips the port, the root's trailing dot and case: `Acme.COM.:8080` → `acme.com`. */
export function normalizeHost(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(0, trimmed.indexOf(']') + 1);
  return trimmed.replace(/:\d+$/, '').replace(/\.$/, '');
}

/**
 * The organization whose domain is exactly this host, or null. Exactly: a parent domain (`acme.com` for
 * `blog.acme.com`) or a slug inside the host (`acme` in `notacme.co`) would let one organization capture
 * a host that is another's, or anyone's (`scalepromarketing.com.evil-org.net`). Domains are stored lower
 * case (the column's check allows nothing else, and it is unique), so comparing with the lower-cased host
 * is comparing without regard to case.
 */
export function organizationForHost<T extends Pick<Organization, 'domain'>>(host: string, organizations: readonly T[]): T | null {
  const name = normalizeHost(host);
  if (name === '') return null;
  return organizations.find((org) => org.domain !== null && org.domain.toLowerCase() === name) ?? null;
}
