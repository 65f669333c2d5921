/**
 * The warm functions of the local servers (netlify/local/warm-functions.ts) against the installed netlify-cli:
 * its runtime still creates one worker per invocation from its own worker.js with the invocation as workerData
 * (if an upgrade changes that, this fails here rather than somewhere in the browser suite), and with the
 * replacement loaded an invocation runs on a warm instance of its function, which keeps its module state between
 * invocations as on Netlify, gets each invocation's environment, and answers through the `message` netlify-cli
 * waits for.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const runtime = require.resolve('netlify-cli/package.json').replace(/package\.json$/, 'dist/lib/functions/runtimes/js/index.js');
const netlifyWorker = new URL('worker.js', pathToFileURL(runtime));
const entryFilePath = new URL('../../fixtures/functions/counting-function.mjs', import.meta.url).href;

describe("netlify-cli's runtime (the contract warm-functions.ts relies on)", () => {
  it('starts a worker of its own worker.js per invocation, with the invocation as workerData, and waits for one message', () => {
    const source = readFileSync(runtime, 'utf8');
    expect(source).toContain("const workerURL = new URL('worker.js', import.meta.url);");
    expect(source).toMatch(/new Worker\(workerURL, \{[\s\S]*?workerData,\s*\}\)/);
    for (const field of ['clientContext', 'environment', 'event', 'entryFilePath', 'timeoutMs']) expect(source).toMatch(new RegExp(`\\b${field}[,:]`));
    expect(source).toContain("worker.on('message'");
    expect(source).toContain("worker.on('error', reject)");
  });
});

describe('warm functions', async () => {
  const threads = require('node:worker_threads') as typeof import('node:worker_threads');
  const Original = threads.Worker;
  const { isFunctionInvocation } = await import('../../../netlify/local/warm-functions.ts');
  afterAll(() => {
    threads.Worker = Original;
  });

  /** One invocation as netlify-cli makes it: `new Worker(worker.js, { env, workerData })`, then its one message. */
  const invoke = (path: string, environment: Record<string, string> = {}) =>
    new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
      const worker = new threads.Worker(netlifyWorker, {
        env: { ...process.env },
        workerData: { clientContext: '{}', environment, event: { path, httpMethod: 'GET', headers: {} }, entryFilePath, timeoutMs: 10_000 },
      }) as unknown as EventEmitter;
      worker.on('message', resolve);
      worker.on('error', reject);
    });

  it("recognizes netlify-cli's invocations only", () => {
    expect(isFunctionInvocation(netlifyWorker, { workerData: { entryFilePath } })).toBe(true);
    expect(isFunctionInvocation(netlifyWorker, { workerData: {} })).toBe(false);
    expect(isFunctionInvocation(new URL('file:///elsewhere/worker.js'), { workerData: { entryFilePath } })).toBe(false);
  });

  it('keeps the function instance between invocations and gives each its environment', async () => {
    const answers = [];
    for (const value of ['first', 'second', 'third']) answers.push(JSON.parse((await invoke(`/${value}`, { WARM_TEST_VALUE: value })).body));
    expect(answers).toEqual([
      { invocations: 1, path: '/first', env: 'first' },
      { invocations: 2, path: '/second', env: 'second' },
      { invocations: 3, path: '/third', env: 'third' },
    ]);
  });

  it('starts another instance for an invocation that comes while the others are busy', async () => {
    const together = await Promise.all([invoke('/a'), invoke('/b')]);
    // One of them ran on the instance that is warm from the test above, the other on a new one.
    expect(together.map((answer) => JSON.parse(answer.body).invocations).sort((a, b) => a - b)).toEqual([1, 4]);
  });
});
