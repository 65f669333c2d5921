/** Brand text when there is no organization. */
export const DEFAULT_BRAND_TEXT = 'SCALEPRO';

/**
 * The header's brand text: the organization name in upper case with its first space removed
 * ("Scale Pro Marketing" → "SCALEPRO MARKETING").
 */
export function brandText(organizationName: string | null | undefined): string {
  const name = organizationName?.trim();
  if (!name) return DEFAULT_BRAND_TEXT;
  return name.toUpperCase().replace(' ', '');
}

/**
 * A page title naming the site's organization: "Admin Dashboard | Evergreen Landscaping". The back office
 * is built per organization, so its tabs say whose site it is.
 */
export function pageTitle(page: string, organizationName: string): string {
  return `${page} | ${organizationName.trim()}`;
}
