/**
 * The newsletter list in the back office (admins of the organization; RLS decides): each address with its
 * state, removal, and the CSV export. The list is written only by the site's double opt-in
 * (src/lib/server/newsletter-opt-in.ts); an admin reads and removes, never adds.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** Where an address stands: confirmed by its owner, waiting for the confirmation, or taken off by its owner. */
export type SubscriberState = 'subscribed' | 'pending' | 'unsubscribed';

/** The states as the page names them. */
export const SUBSCRIBER_STATE_LABELS: Record<SubscriberState, string> = { subscribed: 'Subscribed', pending: 'Not confirmed', unsubscribed: 'Unsubscribed' };

/** One address of the list. */
export interface Subscriber {
  id: string;
  email: string;
  created_at: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
}

/** The state of an address. */
export function subscriberState(row: Pick<Subscriber, 'confirmed_at' | 'unsubscribed_at'>): SubscriberState {
  if (row.unsubscribed_at) return 'unsubscribed';
  return row.confirmed_at ? 'subscribed' : 'pending';
}

/** Rows one request reads (PostgREST's page); the list is read page by page. */
const PAGE = 1000;

/** Every address of the organization's list, newest first. */
export async function listSubscribers(client: SupabaseClient, organizationId: string): Promise<Subscriber[]> {
  const rows: Subscriber[] = [];
  for (let from = 0; ; from += PAGE) {
    const { data, error } = await client
      .from('newsletter_subscribers')
      .select('id, email, created_at, confirmed_at, unsubscribed_at')
      .eq('organization_id', organizationId)
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, from + PAGE - 1);
    if (error) throw new Error(`Loading the newsletter list failed: ${error.message}`);
    rows.push(...((data ?? []) as Subscriber[]));
    if ((data ?? []).length < PAGE) return rows;
  }
}

/** Removes an address from the list (admins only); throws when nothing was removed. */
export async function removeSubscriber(client: SupabaseClient, organizationId: string, id: string): Promise<void> {
  const { data, error } = await client.from('newsletter_subscribers').delete().eq('organization_id', organizationId).eq('id', id).select('id');
  if (error) throw new Error(`Removing the address failed: ${error.message}`);
  if (!data?.length) throw new Error('This address is not on the list, or you may not remove it.');
}

/** A CSV cell: quoted, quotes doubled, and a leading = + - @ defused so a spreadsheet never runs it as a formula. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The list as CSV (RFC 4180, CRLF): email, state, signed up, confirmed, unsubscribed (ISO times, UTC). */
export function subscribersCsv(rows: Subscriber[]): string {
  const lines = [['email', 'state', 'signed_up_at', 'confirmed_at', 'unsubscribed_at'].map(cell).join(',')];
  for (const row of rows) lines.push([row.email, subscriberState(row), row.created_at, row.confirmed_at ?? '', row.unsubscribed_at ?? ''].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
