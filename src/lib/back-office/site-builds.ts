/**
 * What the back office asks of the site's builds (the functions do the asking of Netlify): the nudge after a
 * change visitors will see, so a lone publish starts building at once instead of at the scheduler's next
 * minute, and an admin's retry of a build that failed. The rebuild itself is recorded by the database in the
 * change's own transaction; these only hurry it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { answerMessage, postAdminFunction } from './functions.ts';

/** Retries the site build now (POST /api/admin/rebuild; admins only). */
export async function retrySiteBuild(client: SupabaseClient, organizationId: string, fetchImpl?: typeof fetch): Promise<void> {
  const answer = await postAdminFunction(client, '/api/admin/rebuild', { organization_id: organizationId }, fetchImpl);
  if (!answer.ok) throw new Error(`The rebuild could not be started: ${answerMessage(answer)}`);
}

/**
 * Asks the functions to send the organization's rebuild requests that are already due (POST
 * /api/admin/send-due-rebuilds; editors and admins), right after a change: a lone publish then starts
 * building at once instead of at the scheduler's next minute. Fire and forget: `keepalive` lets it finish
 * while the editor navigates away, and a failure only means the scheduler sends them within a minute.
 */
export function sendDueRebuilds(client: SupabaseClient, organizationId: string): void {
  const keepalive: typeof fetch = (input, init) => fetch(input, { ...init, keepalive: true });
  postAdminFunction(client, '/api/admin/send-due-rebuilds', { organization_id: organizationId }, keepalive).then(
    (answer) => {
      if (!answer.ok) console.error(`Sending due rebuilds: ${answerMessage(answer)}`);
    },
    (error: Error) => console.error(`Sending due rebuilds: ${error.message}`),
  );
}
