/**
 * The local build hook against the real backend and the real deploy-events function, as `npm run serve` wires
 * them (netlify/local/cli.ts): the hook is stored for the organization the local site shows; that
 * organization's rebuild batch calls it, it runs the local build (into a folder of the test's) and reports
 * building, then succeeded, or failed with the build's reason, through signed deploy notifications the
 * function accepts and records. A notification signed with another secret is refused and records nothing;
 * another organization's batch is skipped, as it has no hook; a real (non-loopback) hook is never replaced.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, EVERGREEN, must, SCALE_PRO, settleBuilds } from './support/webhook-backend.ts';
import deployEvents from '../../netlify/functions/deploy-events.mts';
import { configureBuildHook, removeBuildHook, startBuildHook, type BuildHook } from '../../netlify/local/build-hook.ts';
import { signDeployNotification } from '../../netlify/local/deploy-notifications.ts';
import { buildSite } from '../../netlify/local/site-build.ts';
import { localSiteOrganizationSlug } from '../../src/lib/shown-organization.ts';
import { requestRebuild } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

const SECRET = randomBytes(24).toString('hex');
const since = new Date().toISOString();
const saved = { secret: process.env.DEPLOY_NOTIFICATION_SECRET, atOnce: process.env.REBUILD_AT_ONCE };
/** Due at once: the lone change of a quiet organization. */
const atOnce = () => ({ ...process.env, REBUILD_QUIET_WINDOW_MS: '0', REBUILD_AT_ONCE: 'on' });

type Seen = { id: string; state: string; error_message: string | null; status: number };
let functions: Server;
let functionsUrl: string;
const seen: Seen[] = [];
let root: string;
let previousHooks: { organization_id: string; build_hook_url: string }[];

/** The site's functions over HTTP, as netlify-cli serves them: here only /api/deploy-events, the real function. */
async function serveDeployEvents(): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', async () => {
      const answer = await deployEvents(
        new Request(`http://localhost${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === 'POST' ? body : undefined }),
      );
      if (req.url === '/api/deploy-events') seen.push({ ...(JSON.parse(body) as Omit<Seen, 'status'>), status: answer.status });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** A local build hook as `npm run serve` starts it, building the site with `env` into the test's dist, stored for the shown organization. */
async function startServeHook(env: Record<string, string | undefined>): Promise<BuildHook> {
  const hook = await startBuildHook({
    build: (signal) => buildSite({ ...process.env, SITE_BUILD_DIST: join(root, 'dist'), ...env }, { signal, log: () => {} }),
    notifyUrl: `${functionsUrl}/api/deploy-events`,
    secret: SECRET,
    siteUrl: 'http://localhost:8888',
    log: () => {},
  });
  expect(await configureBuildHook(serviceClient(), localSiteOrganizationSlug(process.env), hook.url)).toEqual({ organizationId: SCALE_PRO.id, hook: hook.url });
  return hook;
}

const deployRow = async (id: string) =>
  (await db.from('site_deploys').select('organization_id, source, state, error, url').eq('external_id', id).maybeSingle()).data;
const sendRow = async (batchId: string) => must(await db.from('site_rebuild_sends').select('state, attempts, error, request_count').eq('id', batchId).single(), 'send');

/** Requests a rebuild of the shown organization, sent at once, and waits until the build it started reported its end. */
async function rebuildShownOrganization(reason: string): Promise<Seen[]> {
  const from = seen.length;
  await settleBuilds([SCALE_PRO.id]);
  const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, reason, atOnce());
  expect(flushed).toMatchObject([{ organization_slug: 'scale-pro', outcome: 'hook_called' }]);
  // The hook answered; the local build may already have reported its start.
  expect(await sendRow(flushed[0]!.batch_id)).toEqual({ state: expect.stringMatching(/^(hook_called|started)$/), attempts: 1, error: null, request_count: 1 });
  await expect.poll(() => seen.slice(from).map((n) => n.state), { timeout: 240_000, interval: 500 }).toEqual(expect.arrayContaining([expect.stringMatching(/^(ready|error)$/)]));
  return seen.slice(from);
}

beforeAll(async () => {
  process.env.DEPLOY_NOTIFICATION_SECRET = SECRET;
  root = mkdtempSync(join(tmpdir(), 'local-build-hook-'));
  functions = await serveDeployEvents();
  functionsUrl = `http://127.0.0.1:${(functions.address() as AddressInfo).port}`;
  previousHooks = must(await db.from('site_rebuild_settings').select('organization_id, build_hook_url').in('organization_id', [SCALE_PRO.id, EVERGREEN.id]), 'hooks');
  check(await db.from('site_rebuild_settings').delete().in('organization_id', [SCALE_PRO.id, EVERGREEN.id]), 'remove hooks');
  // Earlier suites' pending requests and unfinished builds would hold or join this suite's batches.
  check(await db.from('site_rebuild_requests').delete().in('organization_id', [SCALE_PRO.id, EVERGREEN.id]).is('batch_id', null), 'clear pending');
});
afterAll(async () => {
  for (const [name, value] of [['DEPLOY_NOTIFICATION_SECRET', saved.secret], ['REBUILD_AT_ONCE', saved.atOnce]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await new Promise<void>((resolve) => functions.close(() => resolve()));
  check(await db.from('site_rebuild_settings').delete().in('organization_id', [SCALE_PRO.id, EVERGREEN.id]), 'remove hooks');
  if (previousHooks.length) check(await db.from('site_rebuild_settings').insert(previousHooks), 'restore hooks');
  const ids = [...new Set(seen.map((n) => n.id))];
  if (ids.length) check(await db.from('site_deploys').delete().in('external_id', ids), 'remove deploys');
  check(await db.from('site_rebuild_requests').delete().in('organization_id', [SCALE_PRO.id, EVERGREEN.id]).gte('requested_at', since), 'remove requests');
  rmSync(root, { recursive: true, force: true });
});

describe('the local build hook of `npm run serve`', () => {
  it('builds the shown organization when its batch calls the hook, and reports building then succeeded, signed and recorded', async () => {
    const hook = await startServeHook({ SITE_ORG: 'scale-pro' });
    try {
      const notifications = await rebuildShownOrganization('Post published: local-build-hook');
      const id = notifications[0]!.id;
      expect(notifications.map((n) => [n.id, n.state, n.status])).toEqual([
        [id, 'building', 202],
        [id, 'ready', 202],
      ]);
      expect(await deployRow(id)).toEqual({ organization_id: SCALE_PRO.id, source: 'netlify', state: 'succeeded', error: null, url: 'http://localhost:8888' });
      // The build went live: the fresh folder swapped in where the test's site is served from.
      expect(readFileSync(join(root, 'dist', 'index.html'), 'utf8')).toContain('Scale Pro');
      expect(existsSync(join(root, 'dist', 'pagefind', 'pagefind.js'))).toBe(true);
    } finally {
      await hook.close();
      await removeBuildHook(serviceClient(), SCALE_PRO.id, hook.url);
    }
  }, 300_000);

  it("reports a failing build as failed with the build's reason, and the served folder stays", async () => {
    const before = existsSync(join(root, 'dist', 'index.html')) ? readFileSync(join(root, 'dist', 'index.html'), 'utf8') : null;
    const hook = await startServeHook({ SITE_ORG: 'no-such-organization' });
    try {
      const notifications = await rebuildShownOrganization('Post published: local-build-hook-failing');
      const id = notifications[0]!.id;
      expect(notifications.map((n) => [n.state, n.status])).toEqual([
        ['building', 202],
        ['error', 202],
      ]);
      expect(notifications[1]!.error_message).toMatch(/^astro build exited with code 1: .*SITE_ORG=no-such-organization names no organization/);
      expect(await deployRow(id)).toMatchObject({ organization_id: SCALE_PRO.id, state: 'failed', error: notifications[1]!.error_message });
      expect(existsSync(join(root, 'dist', 'index.html')) ? readFileSync(join(root, 'dist', 'index.html'), 'utf8') : null).toBe(before);
    } finally {
      await hook.close();
      await removeBuildHook(serviceClient(), SCALE_PRO.id, hook.url);
    }
  }, 300_000);

  it('refuses a notification signed with another secret (401) and records nothing', async () => {
    const id = `local-hook-forged-${Date.now()}`;
    seen.push({ id, state: 'forged', error_message: null, status: 0 }); // so its row, if any, is removed
    const body = JSON.stringify({ id, state: 'ready', context: 'production', created_at: new Date().toISOString(), url: 'http://localhost:8888' });
    const answer = await fetch(`${functionsUrl}/api/deploy-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': await signDeployNotification(body, 'not-the-local-secret') },
      body,
    });
    expect(answer.status).toBe(401);
    expect(await deployRow(id)).toBeNull();
    // Control: the same notification signed with the local secret is recorded.
    const signed = await fetch(`${functionsUrl}/api/deploy-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': await signDeployNotification(body, SECRET) },
      body,
    });
    expect(signed.status).toBe(202);
    expect(await deployRow(id)).toMatchObject({ state: 'succeeded' });
  });

  it("skips another organization's batch, which has no hook, and builds nothing", async () => {
    const hook = await startServeHook({ SITE_ORG: 'scale-pro' });
    const before = seen.length;
    try {
      const { flushed } = await requestRebuild(serviceClient(), EVERGREEN, 'Post published: not-the-local-site', atOnce());
      expect(flushed).toMatchObject([{ organization_slug: EVERGREEN.slug, build_hook_url: null, outcome: 'skipped', error: 'No build hook configured for this organization' }]);
      expect(await sendRow(flushed[0]!.batch_id)).toEqual({ state: 'skipped', attempts: 0, error: 'No build hook configured for this organization', request_count: 1 });
      await hook.idle();
      expect(seen.length).toBe(before);
    } finally {
      await hook.close();
      await removeBuildHook(serviceClient(), SCALE_PRO.id, hook.url);
    }
  });

  it("keeps an organization's real build hook: the local one is not stored over it", async () => {
    const netlifyHook = 'https://api.netlify.com/build_hooks/local-hook-test';
    check(await db.from('site_rebuild_settings').upsert({ organization_id: SCALE_PRO.id, build_hook_url: netlifyHook }), 'real hook');
    expect(await configureBuildHook(serviceClient(), 'scale-pro', 'http://127.0.0.1:55799/build_hooks/local-x')).toEqual({ organizationId: SCALE_PRO.id, hook: netlifyHook });
    await removeBuildHook(serviceClient(), SCALE_PRO.id, 'http://127.0.0.1:55799/build_hooks/local-x');
    const { data } = await db.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', SCALE_PRO.id).single();
    expect(data?.build_hook_url).toBe(netlifyHook);
    // A stale local hook (a server that stopped without removing it) is replaced.
    check(await db.from('site_rebuild_settings').upsert({ organization_id: SCALE_PRO.id, build_hook_url: 'http://127.0.0.1:55798/build_hooks/local-stale' }), 'stale hook');
    expect(await configureBuildHook(serviceClient(), 'scale-pro', 'http://127.0.0.1:55799/build_hooks/local-x')).toMatchObject({ hook: 'http://127.0.0.1:55799/build_hooks/local-x' });
    check(await db.from('site_rebuild_settings').delete().eq('organization_id', SCALE_PRO.id), 'remove hook');
  });
});
