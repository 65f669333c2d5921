/**
 * Client calendar links in the back office: a link an admin gives a client so that they see the site's
 * upcoming posts (titles, dates, states) without signing in. Made through `create_client_calendar_link` (admins;
 * its token shown once, in the link), listed under row-level security (admins of the organization), revoked through
 * `revoke_client_calendar_link`. The database decides who may do what; this module only asks.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ClientLinkInput } from '../../schemas/client-calendar.ts';

/** A link as the list shows it: never its token, which is shown once when it is made. */
export interface ClientCalendarLink {
  id: string;
  label: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  use_count: number;
  creator: { email: string; full_name: string | null } | null;
}

/** A new link: its only showing. */
export interface NewClientCalendarLink {
  id: string;
  label: string;
  expires_at: string;
  token: string;
}

/** Whether a link works now. */
export type ClientLinkState = 'active' | 'expired' | 'revoked';

export function clientLinkState(link: Pick<ClientCalendarLink, 'expires_at' | 'revoked_at'>, now: Date = new Date()): ClientLinkState {
  if (link.revoked_at) return 'revoked';
  return Date.parse(link.expires_at) <= now.getTime() ? 'expired' : 'active';
}

/** The page a link opens, on this site: the token after `#`, so that it never reaches a server's logs or a Referer. */
export function clientLinkUrl(origin: string, token: string): string {
  return `${origin}/client-calendar#${token}`;
}

/** The organization's links, newest first (admins only; anyone else reads none). */
export async function listClientCalendarLinks(client: SupabaseClient, organizationId: string): Promise<ClientCalendarLink[]> {
  const { data, error } = await client
    .from('client_calendar_links')
    .select('id, label, created_at, expires_at, revoked_at, last_used_at, use_count, creator:profiles!client_calendar_links_created_by_fkey(email, full_name)')
    .eq('organization_id', organizationId)
    .order('created_at', { ascending: false });
  if (error) throw new Error(`Listing the client calendar links of ${organizationId} failed: ${error.message}`);
  return (data ?? []) as unknown as ClientCalendarLink[];
}

/** Makes a link; throws with the database's own words for a refusal (no name, too many links, not an admin). */
export async function createClientCalendarLink(client: SupabaseClient, organizationId: string, input: ClientLinkInput): Promise<NewClientCalendarLink> {
  const { data, error } = await client.rpc('create_client_calendar_link', { p_organization_id: organizationId, p_label: input.label, p_days: input.days });
  if (error) throw new ClientLinkError(REFUSALS.has(error.code) ? error.message : 'The link could not be made. Please try again.');
  return data as NewClientCalendarLink;
}

/** Revokes a link: whoever holds it sees nothing from their next visit. */
export async function revokeClientCalendarLink(client: SupabaseClient, id: string): Promise<void> {
  const { error } = await client.rpc('revoke_client_calendar_link', { p_id: id });
  if (error) throw new ClientLinkError(REFUSALS.has(error.code) ? error.message : 'The link could not be revoked. Please try again.');
}

/** The database's refusals, worded for the admin; anything else is a failure. */
const REFUSALS = new Set(['22023', '42501', '54000']);

/** A refusal to show as it is. */
export class ClientLinkError extends Error {}
