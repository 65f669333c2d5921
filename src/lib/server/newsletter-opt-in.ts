/**
 * The newsletter's double opt-in (migration 20261125000500_newsletter_double_opt_in.sql), the only code that
 * writes `newsletter_subscribers` (service client):
 *
 * 1. A sign-up on a site (POST /api/newsletter) asks the database whether to mail; if so, a confirmation
 *    mail goes to the address with two links, to confirm and to unsubscribe, each carrying a random token of
 *    which only the SHA-256 is stored. The visitor gets the same answer whatever the database said, so the
 *    form tells nobody who is on the list; at most one mail per address per hour and
 *    NEWSLETTER_HOURLY_MAIL_LIMIT per organization.
 * 2. The links open a page with one button (GET shows it, POST acts: a mail scanner that follows links
 *    confirms nothing), then the outcome page: confirmed, unsubscribed, or the link no longer works.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { escapeHtml } from './invitation-mail.ts';
import { sendMail, type Mail } from './mailer.ts';

/** Confirmation mails one organization's form may send per hour. */
export const NEWSLETTER_HOURLY_MAIL_LIMIT = 100;

/** How long the confirmation link works (private.newsletter_confirm_days). */
export const NEWSLETTER_CONFIRM_DAYS = 7;

/** Where the links of the mail point, relative to the site's origin. */
export const NEWSLETTER_LINK_PATHS = { confirm: '/api/newsletter/confirm', unsubscribe: '/api/newsletter/unsubscribe' } as const;
export type NewsletterLinkAction = keyof typeof NEWSLETTER_LINK_PATHS;

/** The stored form of a link's token. */
export function newsletterTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const newToken = () => randomBytes(32).toString('base64url');

/** The confirmation mail: who asked, the two links, how long the first works. */
export function confirmationMail(to: string, organizationName: string, links: Record<NewsletterLinkAction, string>): Mail {
  const intro = `Someone, hopefully you, asked to receive the ${organizationName} newsletter at this address.`;
  const confirm = `Confirm your subscription (the link works for ${NEWSLETTER_CONFIRM_DAYS} days):`;
  const ignore = 'If it was not you, ignore this email: without your confirmation the address is not added.';
  const leave = 'To unsubscribe at any time:';
  return {
    to,
    subject: `Confirm your subscription to the ${organizationName} newsletter`,
    text: `${intro}\n\n${confirm}\n${links.confirm}\n\n${ignore}\n\n${leave}\n${links.unsubscribe}\n`,
    html:
      `<p>${escapeHtml(intro)}</p>\n` +
      `<p><a href="${escapeHtml(links.confirm)}">Confirm your subscription</a> (the link works for ${NEWSLETTER_CONFIRM_DAYS} days).</p>\n` +
      `<p>${escapeHtml(ignore)}</p>\n` +
      `<p><a href="${escapeHtml(links.unsubscribe)}">Unsubscribe</a></p>\n`,
  };
}

/**
 * A sign-up for `organization` (the site's own). Resolves once the database decided and any mail was handed
 * over; a mail that could not be sent is logged, not told (the answer must not depend on the list).
 */
export async function requestSubscription(
  client: SupabaseClient,
  organization: { id: string; name: string },
  email: string,
  siteUrl: string,
): Promise<void> {
  const tokens = { confirm: newToken(), unsubscribe: newToken() };
  const { data: mail, error } = await client.rpc('request_newsletter_subscription', {
    p_organization_id: organization.id,
    p_email: email,
    p_confirm_hash: newsletterTokenHash(tokens.confirm),
    p_unsubscribe_hash: newsletterTokenHash(tokens.unsubscribe),
    p_hourly_limit: NEWSLETTER_HOURLY_MAIL_LIMIT,
  });
  if (error) throw new Error(`Recording the newsletter sign-up failed: ${error.message}`);
  if (!mail) return;
  const link = (action: NewsletterLinkAction) => `${siteUrl}${NEWSLETTER_LINK_PATHS[action]}?token=${tokens[action]}`;
  try {
    const sent = await sendMail(confirmationMail(email, organization.name, { confirm: link('confirm'), unsubscribe: link('unsubscribe') }));
    if (sent.status === 'not-configured') console.error('Newsletter confirmation not sent: no mail transport is configured (RESEND_API_KEY).');
  } catch (error) {
    console.error('Newsletter confirmation mail failed:', error instanceof Error ? error.message : String(error));
  }
}

/** What following a link did. */
export type NewsletterLinkOutcome = 'confirmed' | 'unsubscribed' | 'link-invalid';

/** Confirms or unsubscribes with a link's token. */
export async function followNewsletterLink(client: SupabaseClient, action: NewsletterLinkAction, token: string): Promise<NewsletterLinkOutcome> {
  const { data, error } = await client.rpc(action === 'confirm' ? 'confirm_newsletter_subscription' : 'unsubscribe_newsletter', {
    p_token_hash: newsletterTokenHash(token),
  });
  if (error) throw new Error(`Following the newsletter ${action} link failed: ${error.message}`);
  return data === 'invalid' ? 'link-invalid' : (data as 'confirmed' | 'unsubscribed');
}
