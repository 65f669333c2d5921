/**
 * The local build hook: what a Netlify build hook and Netlify's build queue are to a deployed site, for
 * `npm run dev` and `npm run serve`. netlify/local/cli.ts starts it once the site answers, on a free port of
 * 127.0.0.1, and stores its address as the build hook of the organization the local site shows
 * (site_rebuild_settings, with the service role; `configureBuildHook`), so src/lib/server/rebuilds.ts sends
 * that organization's rebuild batches here as it sends them to Netlify in production, and any other
 * organization's batch is skipped for want of a hook. An organization whose hook is not a local address (a
 * real Netlify hook someone configured) keeps it. When the server stops, the hook is removed again if it is
 * still this one.
 *
 * A POST to the hook's address answers 200 at once and starts a build; a call while a build runs queues one
 * follow-up build (further calls join it), as Netlify's queue does, so two builds never run at once. Each
 * build reports through signed deploy notifications to the site's /api/deploy-events
 * (deploy-notifications.ts), as Netlify's do: `building` when it starts, then `ready`, or `error` with the
 * reason the build answered. What a build is, cli.ts decides: under `serve` the local build
 * (site-build.ts `buildSite`, called in this process), under `dev` the refresh of astro dev (dev-refresh.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import { isLoopbackUrl } from '../../src/lib/server/rebuilds.ts';
import { sendDeployNotification, type LocalDeploy } from './deploy-notifications.ts';

/** One build: answers null when it succeeded, else why it failed; stops when `signal` aborts. */
export type LocalBuild = (signal: AbortSignal) => Promise<string | null>;

export type BuildHookOptions = {
  build: LocalBuild;
  /** The site's deploy notifications endpoint (`<site>/api/deploy-events`). */
  notifyUrl: string;
  /** The secret the site verifies notifications with (its DEPLOY_NOTIFICATION_SECRET). */
  secret: string;
  /** The site's address, the deploy's `url`. */
  siteUrl: string;
  /** The port to listen on (127.0.0.1); 0, the default, is any free port. */
  port?: number;
  log?: (line: string) => void;
};

export type BuildHook = {
  /** The hook's address, as stored in site_rebuild_settings. */
  url: string;
  /** Resolves once no build runs and none is queued. */
  idle: () => Promise<void>;
  /** Stops taking calls, stops the running build (which reports its failure) and drops a queued one. */
  close: () => Promise<void>;
};

/** Starts the local build hook; see the header. */
export async function startBuildHook(options: BuildHookOptions): Promise<BuildHook> {
  const log = options.log ?? ((line: string) => console.log(`[build-hook] ${line}`));
  const path = `/build_hooks/local-${randomUUID()}`;
  const stop = new AbortController();
  let running: Promise<void> | undefined;

  const notify = async (deploy: LocalDeploy) => {
    try {
      await sendDeployNotification(options.notifyUrl, options.secret, deploy);
    } catch (error) {
      log(`could not report deploy ${deploy.id} as ${deploy.state}: ${(error as Error).message}`);
    }
  };

  const buildOnce = async (title: string | null) => {
    const deploy: LocalDeploy = { id: randomUUID(), state: 'building', created_at: new Date().toISOString(), error_message: null, title, url: options.siteUrl };
    log(`build ${deploy.id} started${title ? ` (${title})` : ''}`);
    await notify(deploy);
    let reason: string | null;
    try {
      reason = await options.build(stop.signal);
    } catch (error) {
      reason = (error as Error).message;
    }
    log(`build ${deploy.id} ${reason ? `failed: ${reason}` : 'succeeded'}`);
    await notify({ ...deploy, state: reason ? 'error' : 'ready', error_message: reason });
  };

  /** A call's trigger title for the queued follow-up build (the latest call's), or undefined: none queued. */
  let queued: { title: string | null } | undefined;
  const trigger = (title: string | null) => {
    if (running) {
      if (!queued) log('a build is running: one follow-up build is queued');
      queued = { title };
      return;
    }
    running = (async () => {
      let next: { title: string | null } | undefined = { title };
      while (next && !stop.signal.aborted) {
        queued = undefined;
        await buildOnce(next.title);
        next = queued;
      }
    })().finally(() => {
      running = undefined;
      queued = undefined;
    });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    req.resume();
    if (url.pathname !== path) res.writeHead(404).end();
    else if (req.method !== 'POST') res.writeHead(405, { allow: 'POST' }).end();
    else if (stop.signal.aborted) res.writeHead(503).end();
    else {
      trigger(url.searchParams.get('trigger_title'));
      res.writeHead(200).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    idle: async () => {
      while (running) await running;
    },
    close: async () => {
      stop.abort();
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), running]);
    },
  };
}

/**
 * Stores `url` as the build hook of the organization `slug`, unless its hook is a real one (not a loopback
 * address), which it keeps. Answers the organization's id and the hook it has now (null: no such organization).
 */
export async function configureBuildHook(client: SupabaseClient, slug: string, url: string): Promise<{ organizationId: string; hook: string } | null> {
  const { data: organization, error } = await client.from('organizations').select('id').eq('slug', slug).maybeSingle();
  if (error) throw new Error(`Could not read the organization ${slug}: ${error.message}`);
  if (!organization) return null;
  const organizationId = organization.id as string;
  const { data: setting, error: readError } = await client.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', organizationId).maybeSingle();
  if (readError) throw new Error(`Could not read the build hook of ${slug}: ${readError.message}`);
  const current = setting?.build_hook_url as string | null | undefined;
  if (current && !isLoopbackUrl(current)) return { organizationId, hook: current };
  const { error: writeError } = await client.from('site_rebuild_settings').upsert({ organization_id: organizationId, build_hook_url: url });
  if (writeError) throw new Error(`Could not store the local build hook of ${slug}: ${writeError.message}`);
  return { organizationId, hook: url };
}

/**
 * Stores `url` as the build hook of the organization `slug` when it has none, as after the database was reset
 * under the running server; a hook it has (another local server's, a real one, a test's) is left alone.
 * Answers the organization's id when it stored the hook, else null.
 */
export async function restoreBuildHook(client: SupabaseClient, slug: string, url: string): Promise<string | null> {
  const { data: organization, error } = await client.from('organizations').select('id').eq('slug', slug).maybeSingle();
  if (error) throw new Error(`Could not read the organization ${slug}: ${error.message}`);
  if (!organization) return null;
  const { data, error: writeError } = await client
    .from('site_rebuild_settings')
    .upsert({ organization_id: organization.id, build_hook_url: url }, { onConflict: 'organization_id', ignoreDuplicates: true })
    .select('organization_id');
  if (writeError) throw new Error(`Could not store the local build hook of ${slug}: ${writeError.message}`);
  return data.length > 0 ? (organization.id as string) : null;
}

/** Removes the organization's build hook if it is still `url` (another local server may have taken it over). */
export async function removeBuildHook(client: SupabaseClient, organizationId: string, url: string): Promise<void> {
  const { error } = await client.from('site_rebuild_settings').delete().eq('organization_id', organizationId).eq('build_hook_url', url);
  if (error) throw new Error(`Could not remove the local build hook: ${error.message}`);
}
