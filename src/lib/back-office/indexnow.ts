/**
 * Search engine notifications (IndexNow) as the Settings tab shows them: whether they are on, the key the site
 * serves, and the submission log, newest first (what a live deploy changed, the engine's answer, the tries). Admins
 * switch them and rotate the key through `set_indexnow` (the database checks the caller; see the migration
 * 20261129000500_indexnow.sql); the site's next build serves a new key.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

export interface IndexNowSite {
  key: string;
  enabled: boolean;
  rotated_at: string;
}

export interface IndexNowSubmission {
  id: string;
  urls: string[];
  /** `pending`: being sent (claimed under a lease); `unsendable`: never to be sent, the reason in `error`. */
  status: 'pending' | 'sent' | 'failed' | 'unsendable';
  attempts: number;
  response_status: number | null;
  error: string | null;
  created_at: string;
  sent_at: string | null;
  next_attempt_at: string | null;
}

/** How many submissions the log shows. */
export const SUBMISSIONS_SHOWN = 20;

/** The organization's key and switch (null when it has none) and its latest submissions. */
export async function loadIndexNow(client: SupabaseClient, organizationId: string): Promise<{ site: IndexNowSite | null; submissions: IndexNowSubmission[] }> {
  const [site, submissions] = await Promise.all([
    client.from('indexnow_sites').select('key, enabled, rotated_at').eq('organization_id', organizationId).maybeSingle(),
    client
      .from('indexnow_submissions')
      .select('id, urls, status, attempts, response_status, error, created_at, sent_at, next_attempt_at')
      .eq('organization_id', organizationId)
      .order('created_at', { ascending: false })
      .limit(SUBMISSIONS_SHOWN),
  ]);
  if (site.error) throw new Error(`Reading the IndexNow key failed: ${site.error.message}`);
  if (submissions.error) throw new Error(`Reading the IndexNow log failed: ${submissions.error.message}`);
  return { site: site.data as IndexNowSite | null, submissions: submissions.data as IndexNowSubmission[] };
}

/** Switches submissions on or off, or gives the site a new key; answers the row as saved. */
export async function setIndexNow(client: SupabaseClient, organizationId: string, change: { enabled: boolean } | { rotate: true }): Promise<IndexNowSite> {
  const { data, error } = await client.rpc('set_indexnow', {
    p_organization_id: organizationId,
    ...('enabled' in change ? { p_enabled: change.enabled } : { p_rotate: true }),
  });
  if (error) throw new Error(error.message);
  return data as IndexNowSite;
}

/** A submission's state in words: sent, waiting for its retry, given up, being sent, or not to be sent. */
export function submissionState(submission: IndexNowSubmission): { label: string; variant: 'success' | 'warning' | 'destructive' | 'neutral' } {
  if (submission.status === 'sent') return { label: 'Sent', variant: 'success' };
  if (submission.status === 'pending') return { label: 'Sending', variant: 'neutral' };
  if (submission.status === 'unsendable') return { label: 'Not sent', variant: 'destructive' };
  return submission.next_attempt_at ? { label: 'Failed, will retry', variant: 'warning' } : { label: 'Failed', variant: 'destructive' };
}
