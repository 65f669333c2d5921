/**
 * The local rebuild, as the scheduled flush runs it once the quiet window has passed: the test flushes the
 * organization's pending rebuild requests with a zero window (the served site's functions use a one-hour
 * window in e2e, so no build starts under another test), which runs `npm run build` for the organization,
 * and waits until the batch is recorded as built. `netlify serve` serves dist/ as the build leaves it.
 */
import { expect } from '@playwright/test';
import { flushDueRebuilds } from '../../../src/lib/server/rebuilds.ts';
import { service } from './backend.ts';

/** Starts the organization's public site build from its pending rebuild requests; fails if there were none. Returns the batch. */
export async function startPublicSiteRebuild(organizationId: string): Promise<string> {
  const batches = await flushDueRebuilds(service, { organizationId, env: { ...process.env, REBUILD_QUIET_WINDOW_MS: '0' } });
  expect(batches.map((batch) => batch.outcome)).toEqual(['building']);
  return batches[0]!.batch_id;
}

/** Waits until the batch's build is recorded as built. */
export async function rebuildFinished(batchId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const { data } = await service.from('site_rebuild_requests').select('status, error').eq('batch_id', batchId).limit(1).single();
        return data?.status === 'failed' ? `failed: ${data.error}` : data?.status;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe('succeeded');
}

/** Builds the organization's public site from its pending rebuild requests, and waits until it is built. */
export async function rebuildPublicSite(organizationId: string): Promise<void> {
  await rebuildFinished(await startPublicSiteRebuild(organizationId));
}
