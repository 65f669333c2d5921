/**
 * `node netlify/local/cli.ts <serve|dev> [netlify-cli options]`: `netlify serve` or `netlify dev` behind the
 * body-limit proxy (body-limit-proxy.ts), so the local servers answer 413 to bodies over Netlify's function
 * limit instead of exiting. The proxy takes the public port (`--port`/`-p`, else 8888, netlify.toml's [dev]
 * port); netlify-cli gets a free internal one. The proxy listens only once netlify-cli answers, so whatever
 * waits for the site (Playwright's webServer) sees it when it is ready. Other options go to netlify-cli.
 *
 * Once the site answers, the local scheduler (scheduler.ts) runs the scheduled functions on their schedules,
 * as Netlify does in production (`publish-scheduled` every minute: due posts are published and due rebuilds
 * sent, see src/lib/server/rebuilds.ts); `LOCAL_SCHEDULER=off` switches it off. It stops with the server.
 * The functions (netlify-cli's and the scheduler's) see LOCAL_SITE_SERVER=dev|serve, which tells the local
 * build (site-build.ts) what serves the site.
 */
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FUNCTION_BODY_LIMIT_BYTES } from '../../src/lib/server/http.ts';
import { createBodyLimitProxy } from './body-limit-proxy.ts';
import { schedulerDisabled, startScheduler, type Scheduler } from './scheduler.ts';

const NETLIFY = join(import.meta.dirname, '../../node_modules/.bin/netlify');
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
// `netlify dev` tells the framework its own address in URL, the internal port here: keep the site's links on the public one.
if (command === 'dev') process.env.SITE_URL ??= `http://localhost:${port}`;
process.env.LOCAL_SITE_SERVER = command;
const frameworkArgs: string[] = [];
if (command === 'dev' && !rest.some((arg) => /^--(command|target-port)\b|^-c$/.test(arg))) {
  // astro dev on a free port of its own rather than netlify.toml's 4321, so two dev servers never clash.
  const astroPort = await freePort();
  frameworkArgs.push('--command', `astro dev --port ${astroPort}`, '--target-port', String(astroPort));
}
// netlify dev applies the `_headers` file of the build's folder (`dist/`) to astro dev's pages: a previous
// build's Content-Security-Policy (hashes of the built inline scripts) would block astro dev's own scripts,
// so no island would load. Under dev that file is removed (`npm run serve` and `npm run build` write it again).
if (command === 'dev') rmSync(join(import.meta.dirname, '../../dist/_headers'), { force: true });
// Its own process group: netlify-cli leaves `astro dev` running when it stops, so the group is what is stopped.
const netlify = spawn(NETLIFY, [command, ...rest, ...frameworkArgs, '--port', String(internalPort)], { stdio: 'inherit', env: { ...process.env }, detached: true });
/** Signals netlify-cli and everything it started (astro dev, local builds); quiet when they are gone already. */
function signalGroup(signal: NodeJS.Signals): void {
  try {
    process.kill(-netlify.pid!, signal);
  } catch {
    // The group has no process left.
  }
}
const proxy = createBodyLimitProxy(internalPort);

let exited = false;
let scheduler: Scheduler | undefined;
netlify.on('exit', (code, signal) => {
  exited = true;
  proxy.close();
  signalGroup('SIGTERM');
  // A run in progress may finish (for a few seconds at most), so it never stops halfway through a write.
  void Promise.race([scheduler?.stop(), sleep(10_000)]).finally(() => process.exit(code ?? (signal ? 1 : 0)));
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void scheduler?.stop();
    signalGroup(signal);
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
