/**
 * The lead-management provider's embeds (booking calendar, contact form). Their addresses are per
 * organization (`booking_embed_url`, `contact_form_embed_url` settings); the provider's script is shared.
 */
import type { Organization } from '../host-match.ts';

/** The provider's form-embed script: sizes its frames; loaded once, on demand. */
export const PROVIDER_SCRIPT_URL = 'https://link.msgsndr.com/js/form_embed.js';

/** The organization's embed addresses, or null for the ones it has not set. */
export function embedUrls(organization: Organization): { booking: string | null; contactForm: string | null } {
  return {
    booking: organization.settings.booking_embed_url || null,
    contactForm: organization.settings.contact_form_embed_url || null,
  };
}
