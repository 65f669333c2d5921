/**
 * `node netlify/local/cli.ts <serve|dev> [netlify-cli options]`: `netlify serve` or `netlify dev` behind the
 * body-limit proxy (body-limit-proxy.ts), so the local servers answer 413 to bodies over Netlify's function
 * limit instead of exiting. The proxy takes the public port (`--port`/`-p`, else 8888, netlify.toml's [dev]
 * port); netlify-cli gets a free internal one. The proxy listens only once netlify-cli answers, so whatever
 * waits for the site (Playwright's webServer) sees it when it is ready. Other options go to netlify-cli.
 *
 * Functions stay warm between invocations, as on Netlify (warm-functions.ts; `LOCAL_WARM_FUNCTIONS=off` gives
 * netlify-cli's one fresh instance per invocation).
 *
 * Once the site answers, the local scheduler (scheduler.ts) runs the scheduled functions on their schedules,
 * as Netlify does in production (`publish-scheduled` every minute: due posts are published and due rebuilds
 * sent, see src/lib/server/rebuilds.ts); `LOCAL_SCHEDULER=off` switches it off. It stops with the server.
 *
 * Once the site answers, the local build hook (build-hook.ts) listens too, and with a local backend is stored
 * as the build hook of the organization the local site shows (src/lib/shown-organization.ts): rebuilds are sent
 * to it as they are sent to Netlify's hooks. Under `serve` it runs the local build (site-build.ts), under
 * `dev` the refresh of astro dev (dev-refresh.ts); either reports through deploy notifications signed with
 * DEPLOY_NOTIFICATION_SECRET, which the functions get from this process (a random one when it is unset). On
 * a stop signal the hook stops first (the running build reports its failure while the functions still
 * answer) and removes itself from the organization's settings. When the database is reset under the server,
 * the hook stores itself again within ten seconds and rebuilds.
 */
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FUNCTION_BODY_LIMIT_BYTES } from '../../src/lib/server/http.ts';
import { localSiteOrganizationSlug } from '../../src/lib/shown-organization.ts';
import { isLoopbackUrl, requestRebuild } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { serviceSupabaseConfig } from '../../src/lib/server/service-config.ts';
import { createAssetCache } from './asset-cache.ts';
import { createBodyLimitProxy } from './body-limit-proxy.ts';
import { configureBuildHook, removeBuildHook, restoreBuildHook, startBuildHook, type BuildHook } from './build-hook.ts';
import { refreshAstroDev } from './dev-refresh.ts';
import { schedulerDisabled, startScheduler, type Scheduler } from './scheduler.ts';
import { buildSite, distFolder } from './site-build.ts';

const NETLIFY = join(import.meta.dirname, '../../node_modules/.bin/netlify');
/** Keeps each function's instance between invocations, as Netlify does (warm-functions.ts). */
const WARM_FUNCTIONS = new URL('./warm-functions.ts', import.meta.url).href;
const FUNCTIONS_DIR = join(import.meta.dirname, '../functions');
const DEFAULT_PORT = 8888;
const COMMANDS = new Set(['serve', 'dev']);

/** The public port and the options left for netlify-cli. */
function splitPort(args: string[]): { port: number; rest: string[] } {
  const rest: string[] = [];
  let port = DEFAULT_PORT;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const inline = arg.match(/^--port=(.+)$/);
    if (inline) port = Number(inline[1]);
    else if (arg === '--port' || arg === '-p') port = Number(args[(i += 1)]);
    else rest.push(arg);
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Invalid port: ${port}`);
  return { port, rest };
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Whether anything answers HTTP on the port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    get({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.resume();
      resolve(true);
    }).on('error', () => resolve(false));
  });
}

const [command, ...args] = process.argv.slice(2);
if (!command || !COMMANDS.has(command)) {
  console.error('Usage: node netlify/local/cli.ts <serve|dev> [netlify-cli options]');
  process.exit(2);
}
const { port, rest } = splitPort(args);
const internalPort = await freePort();
// The site's own address, for the links the functions mail (src/lib/server/site-address.ts) and, under dev,
// the framework's (`netlify dev` tells it its own address in URL, the internal port here).
process.env.SITE_URL ??= `http://localhost:${port}`;
// The local build hook signs its deploy notifications with the secret the functions verify them with.
process.env.DEPLOY_NOTIFICATION_SECRET ||= randomBytes(32).toString('base64url');
const frameworkArgs: string[] = [];
if (command === 'dev' && !rest.some((arg) => /^--(command|target-port)\b|^-c$/.test(arg))) {
  // astro dev on a free port of its own rather than netlify.toml's 4321, so two dev servers never clash.
  const astroPort = await freePort();
  frameworkArgs.push('--command', `astro dev --port ${astroPort}`, '--target-port', String(astroPort));
}
// A previous build's `_headers` in `dist/` is applied by both servers: netlify dev applies it to astro dev's
// pages, whose scripts its Content-Security-Policy (hashes of the built inline scripts) would block; netlify
// serve folds it into its headers before its own build and keeps it beside the new build's, so a build made
// against another backend (its connect-src) would block every call to this one. It is removed before either
// starts (`npm run serve` and `npm run build` write it again).
rmSync(join(import.meta.dirname, '../../dist/_headers'), { force: true });
// Its own process group: netlify-cli leaves `astro dev` running when it stops, so the group is what is stopped.
const netlify = spawn(process.execPath, ['--import', WARM_FUNCTIONS, NETLIFY, command, ...rest, ...frameworkArgs, '--port', String(internalPort)], {
  stdio: 'inherit',
  env: { ...process.env },
  detached: true,
});
/** Signals netlify-cli and everything it started (astro dev, local builds); quiet when they are gone already. */
function signalGroup(signal: NodeJS.Signals): void {
  try {
    process.kill(-netlify.pid!, signal);
  } catch {
    // The group has no process left.
  }
}
// Serving the built site, the proxy also answers its `_astro/` files as Netlify's CDN would, once served (asset-cache.ts).
const proxy = createBodyLimitProxy(internalPort, { assets: command === 'serve' ? createAssetCache(distFolder()) : undefined });

let exited = false;
let scheduler: Scheduler | undefined;
let hook: { server: BuildHook; organizationId: string | null } | undefined;

/** Starts the local build hook and stores it as the shown organization's hook (with a local backend only). */
async function startLocalBuildHook(siteUrl: string): Promise<void> {
  const slug = localSiteOrganizationSlug(process.env);
  const log = (line: string) => console.log(`[build-hook] ${line}`);
  const server = await startBuildHook({
    build: command === 'dev' ? () => refreshAstroDev(log) : (signal) => buildSite({ ...process.env, SITE_ORG: slug }, { signal }),
    notifyUrl: `http://127.0.0.1:${port}/api/deploy-events`,
    secret: process.env.DEPLOY_NOTIFICATION_SECRET!,
    siteUrl,
    log,
  });
  hook = { server, organizationId: null };
  const backend = serviceSupabaseConfig(process.env).url;
  if (!isLoopbackUrl(backend)) {
    log(`the backend ${backend} is not local: no build hook is stored, rebuilds go to the organizations' own hooks`);
    return;
  }
  const configured = await configureBuildHook(serviceClient(), slug, server.url);
  if (!configured) log(`no organization ${slug}: no build hook is stored`);
  else if (configured.hook !== server.url) log(`${slug} has a build hook of its own (${configured.hook}): publishing calls that one`);
  else {
    hook.organizationId = configured.organizationId;
    log(`rebuilds of ${slug} come here (${server.url}); other organizations have no build hook locally`);
    keepBuildHook(slug, server.url, log);
  }
}

/** How often the server checks that its build hook is still stored. */
const HOOK_CHECK_MS = 10_000;

/**
 * A database reset under the running server (`npm run db:reset`) removes its build hook: every rebuild would
 * then be skipped. Checks every HOOK_CHECK_MS and stores it again, then rebuilds, so the site shows the
 * database it now has. Unreachable backends (a reset in progress) are tried again at the next check.
 */
function keepBuildHook(slug: string, url: string, log: (line: string) => void): void {
  const timer = setInterval(async () => {
    if (!hook || hook.server.url !== url) return clearInterval(timer);
    try {
      const organizationId = await restoreBuildHook(serviceClient(), slug, url);
      if (!organizationId) return;
      hook.organizationId = organizationId;
      log(`the database had lost the build hook of ${slug} (reset?): stored it again, and rebuilding`);
      await requestRebuild(serviceClient(), { id: organizationId, slug }, 'Build hook stored again after a database reset');
    } catch (error) {
      log(`could not check the build hook: ${(error as Error).message}`);
    }
  }, HOOK_CHECK_MS);
  timer.unref();
}

/** Stops the local build hook (the running build reports its end) and removes it from the settings. */
async function stopLocalBuildHook(): Promise<void> {
  const current = hook;
  hook = undefined;
  if (!current) return;
  await current.server.close();
  if (current.organizationId) await removeBuildHook(serviceClient(), current.organizationId, current.server.url).catch((error: Error) => console.error(`[build-hook] ${error.message}`));
}

netlify.on('exit', (code, signal) => {
  exited = true;
  proxy.close();
  signalGroup('SIGTERM');
  // A run in progress may finish (for a few seconds at most), so it never stops halfway through a write.
  void Promise.race([Promise.all([scheduler?.stop(), stopLocalBuildHook()]), sleep(10_000)]).finally(() => process.exit(code ?? (signal ? 1 : 0)));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void scheduler?.stop();
    // The hook first, while the functions still take the stopped build's notification; then netlify-cli.
    void Promise.race([stopLocalBuildHook(), sleep(5_000)]).finally(() => signalGroup(signal));
  });
}
proxy.on('error', (error) => {
  console.error(`The proxy cannot listen on port ${port}: ${error.message}`);
  signalGroup('SIGTERM');
});

while (!exited && !(await answers(internalPort))) await sleep(500);
if (!exited) {
  const limit = `${FUNCTION_BODY_LIMIT_BYTES / 1e6} MB`;
  proxy.listen(port, () => {
    console.log(`\nSite with its functions at http://localhost:${port} (request bodies over ${limit} answer 413, as on Netlify)\n`);
    if (exited) return;
    startLocalBuildHook(`http://localhost:${port}`).catch((error: Error) => {
      console.error(`[build-hook] ${error.message}`);
      signalGroup('SIGTERM');
    });
    if (schedulerDisabled(process.env)) {
      console.log('[scheduler] LOCAL_SCHEDULER=off: scheduled functions do not run');
      return;
    }
    try {
      scheduler = startScheduler({ dir: FUNCTIONS_DIR, siteUrl: `http://localhost:${port}` });
    } catch (error) {
      console.error(`[scheduler] ${(error as Error).message}`);
      signalGroup('SIGTERM');
      return;
    }
    const list = scheduler.functions.map((fn) => `${fn.name} (${fn.schedule})`).join(', ') || 'none';
    console.log(`[scheduler] running the scheduled functions on their schedules: ${list} (LOCAL_SCHEDULER=off disables)`);
  });
}
