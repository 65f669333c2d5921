/**
 * Warm functions for the local servers (`npm run serve`, `npm run dev`): loaded into netlify-cli's process with
 * `--import` (netlify/local/cli.ts), it keeps each function's instance between invocations, as Netlify's
 * production does, instead of netlify-cli's one new worker thread per invocation, which loads the function's whole
 * bundle every time (a third of a second of CPU for a function that answers `{ status: 'ok' }`, and a third of a
 * core all through the browser suite).
 *
 * netlify-cli 27 (pinned in package.json) runs each invocation of a function as `new Worker(worker.js, { env,
 * workerData })` and waits for its one `message` (or `error`). That constructor is replaced here: for netlify-cli's
 * worker it hands the invocation to an idle warm instance of the same function (warm-function-worker.ts), or starts
 * one when all are busy (as Netlify starts another instance for a concurrent request); any other worker is
 * created as before. The answer comes back as that one `message`. tests/unit/local/warm-functions.test.ts checks
 * the contract against the installed netlify-cli, so an upgrade that changes it fails there, not in the browser.
 * `LOCAL_WARM_FUNCTIONS=off` keeps netlify-cli's own behaviour.
 */
import { EventEmitter } from 'node:events';
import { statSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';
import { restoreContentType } from './unparsable-content-type.ts';

const require = createRequire(import.meta.url);
const threads = require('node:worker_threads') as typeof import('node:worker_threads');
const NetlifyWorker = threads.Worker;
const WARM_WORKER = new URL('./warm-function-worker.ts', import.meta.url);

/** What netlify-cli hands its worker for one invocation (its runtimes/js/worker.js reads the same). */
export type Invocation = { entryFilePath: string; environment?: Record<string, string>; event: unknown; clientContext: string; timeoutMs: number };

/** Whether a worker netlify-cli creates is one invocation of a function: its own worker.js with an invocation. */
export function isFunctionInvocation(url: string | URL, options?: WorkerOptions): boolean {
  const data = options?.workerData as Partial<Invocation> | undefined;
  return /\/netlify-cli\/dist\/lib\/functions\/runtimes\/js\/worker\.js$/.test(String(url)) && typeof data?.entryFilePath === 'string';
}

/** A warm instance of a function: the bundle it loaded (its file's time), and whether an invocation runs on it. */
type Instance = { worker: InstanceType<typeof NetlifyWorker>; loaded: number; busy: boolean };
/** The warm instances of each function, by its entry file. */
const instances = new Map<string, Instance[]>();

/** An idle instance of the function's current bundle, else a new one; instances of an older bundle are stopped. */
function instanceFor(invocation: Invocation, env: WorkerOptions['env']): Instance {
  const path = fileURLToPath(invocation.entryFilePath);
  // `npm run dev` bundles a function again when its code changes: a changed bundle gets instances of its own.
  const loaded = statSync(path).mtimeMs;
  const pool = (instances.get(path) ?? []).filter((instance) => {
    if (instance.loaded === loaded || instance.busy) return true;
    void instance.worker.terminate();
    return false;
  });
  instances.set(path, pool);
  const idle = pool.find((instance) => !instance.busy && instance.loaded === loaded);
  if (idle) return idle;
  const instance: Instance = { worker: new NetlifyWorker(WARM_WORKER, { env }), loaded, busy: false };
  instance.worker.unref();
  // An instance that stopped (or failed outside an invocation) is dropped; the next invocation starts another.
  instance.worker.on('exit', () => {
    const current = instances.get(path);
    if (current?.includes(instance)) current.splice(current.indexOf(instance), 1);
  });
  instance.worker.on('error', () => void instance.worker.terminate());
  pool.push(instance);
  return instance;
}

/** Runs one invocation on a warm instance of its function; the returned emitter says `message` or `error` once. */
function invoke(options: WorkerOptions): EventEmitter {
  const invocation = options.workerData as Invocation;
  restoreContentType(invocation.event as Parameters<typeof restoreContentType>[0]);
  const answer = new EventEmitter();
  const instance = instanceFor(invocation, options.env);
  instance.busy = true;
  const settle = (event: 'message' | 'error', value: unknown) => {
    instance.busy = false;
    instance.worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    answer.emit(event, value);
  };
  const onMessage = (reply: { result?: unknown; error?: { message: string; stack?: string } }) =>
    reply.error ? settle('error', Object.assign(new Error(reply.error.message), { stack: reply.error.stack })) : settle('message', reply.result);
  // A failure thrown outside the invocation's promise ends the instance, as it ends netlify-cli's worker.
  const onError = (error: Error) => settle('error', error);
  const onExit = (code: number) => settle('error', new Error(`The function's instance stopped (exit code ${code})`));
  instance.worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  instance.worker.postMessage(invocation);
  return answer;
}

if (!['off', '0', 'false'].includes((process.env.LOCAL_WARM_FUNCTIONS ?? '').toLowerCase())) {
  threads.Worker = function Worker(url: string | URL, options?: WorkerOptions) {
    return isFunctionInvocation(url, options) ? invoke(options!) : new NetlifyWorker(url, options);
  } as unknown as typeof NetlifyWorker;
  // netlify-cli imports `Worker` from the ESM builtin: its binding follows the replaced export.
  syncBuiltinESMExports();
}
