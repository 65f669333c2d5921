/** Newsletter subscriptions: the only place that writes `newsletter_subscribers`. */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { NewsletterSignup } from '../schemas/newsletter.ts';

/** What happened to a sign-up. */
export type SubscribeOutcome = 'subscribed' | 'already-subscribed' | 'unknown-organization';

/** Postgres' unique_violation: the address is already on that organization's list. */
const UNIQUE_VIOLATION = '23505';

/**
 * Adds a lowercased address to one organization's list. Needs a service-role client: visitors cannot
 * read the list, so duplicates are detected by the unique index, not by a lookup.
 */
export async function subscribeToNewsletter(client: SupabaseClient, signup: NewsletterSignup): Promise<SubscribeOutcome> {
  const organization = await client.from('organizations').select('id').eq('slug', signup.organization).maybeSingle();
  if (organization.error) throw new Error(`Looking up organization ${signup.organization} failed: ${organization.error.message}`);
  if (!organization.data) return 'unknown-organization';

  const insert = await client
    .from('newsletter_subscribers')
    .insert({ organization_id: organization.data.id, email: signup.email.toLowerCase() });
  if (!insert.error) return 'subscribed';
  if (insert.error.code === UNIQUE_VIOLATION) return 'already-subscribed';
  throw new Error(`Subscribing to the ${signup.organization} newsletter failed: ${insert.error.message}`);
}
