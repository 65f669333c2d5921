/**
 * The local rebuild, as the scheduled flush sends it: the test flushes the organization's pending rebuild
 * requests with a zero window (the served site's functions hold them for an hour in e2e, so no build starts
 * under another test). The batch goes to the organization's build hook,
 * which the served site stores for the organization it shows (netlify/local/build-hook.ts) and which runs the
 * local build; the test waits until the build's deploy notification recorded it as built. `netlify serve`
 * serves dist/ as the build leaves it.
 */
import { expect } from '@playwright/test';
import { flushDueRebuilds } from '../../../src/lib/server/rebuilds.ts';
import { service } from './backend.ts';

/** A build the test started: its organization and when it was requested. */
export type StartedRebuild = { organizationId: string; since: string };

/** Sends the organization's pending rebuild requests to its build hook; fails if there were none or the hook refused. */
export async function startPublicSiteRebuild(organizationId: string): Promise<StartedRebuild> {
  const since = new Date().toISOString();
  const batches = await flushDueRebuilds(service, { organizationId, env: { ...process.env, REBUILD_QUIET_WINDOW_MS: '0' } });
  expect(batches.map((batch) => (batch.error ? `${batch.outcome}: ${batch.error}` : batch.outcome))).toEqual(['hook_called']);
  return { organizationId, since };
}

/** Waits until the build the hook started is recorded as built (site_deploys, from its deploy notifications). */
export async function rebuildFinished({ organizationId, since }: StartedRebuild): Promise<void> {
  await expect
    .poll(
      async () => {
        const { data } = await service
          .from('site_deploys')
          .select('state, error')
          .eq('organization_id', organizationId)
          .gte('started_at', since)
          .order('started_at', { ascending: false })
          .limit(1)
          .maybeSingle();
        return data?.state === 'failed' ? `failed: ${data.error}` : data?.state;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe('succeeded');
}

/** Builds the organization's public site from its pending rebuild requests, and waits until it is built. */
export async function rebuildPublicSite(organizationId: string): Promise<void> {
  await rebuildFinished(await startPublicSiteRebuild(organizationId));
}
