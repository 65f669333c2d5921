/**
 * One warm instance of a function (warm-functions.ts): imports the function's entry once, then runs each
 * invocation posted to it as netlify-cli's own worker runs one (through lambda-local, netlify-cli's runtime, with
 * the invocation's environment set first), answering `{ result }` or `{ error }`. A response body that is a stream
 * is served once on a local port (`streamPort`), as netlify-cli's worker does, for its process to read.
 */
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import type { Invocation } from './warm-functions.ts';

// netlify-cli's own copy of its runtime, whatever the project's dependencies hoist.
const fromNetlifyCli = createRequire(createRequire(import.meta.url).resolve('netlify-cli/package.json'));
const lambdaLocal = fromNetlifyCli('lambda-local') as {
  getLogger: () => { level: string };
  execute: (options: Record<string, unknown>) => Promise<{ body?: unknown } | null>;
};
lambdaLocal.getLogger().level = 'alert';

const functions = new Map<string, unknown>();

/** Serves a streamed body once on a local port; answers the port. */
function servedOnce(body: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => body.pipe(socket).on('end', () => server.close()));
    server.on('error', reject);
    server.listen({ port: 0, host: 'localhost' }, () => resolve((server.address() as AddressInfo).port));
  });
}

parentPort!.on('message', async (invocation: Invocation) => {
  try {
    for (const [key, value] of Object.entries(invocation.environment ?? {})) process.env[key] = value;
    if (!functions.has(invocation.entryFilePath)) functions.set(invocation.entryFilePath, await import(invocation.entryFilePath));
    const result = await lambdaLocal.execute({
      clientContext: invocation.clientContext,
      event: invocation.event,
      lambdaFunc: functions.get(invocation.entryFilePath),
      region: 'dev',
      timeoutMs: invocation.timeoutMs,
      verboseLevel: 3,
    });
    if (typeof (result?.body as Readable | undefined)?.pipe === 'function') {
      const { body, ...rest } = result!;
      parentPort!.postMessage({ result: { ...rest, streamPort: await servedOnce(body as Readable) } });
    } else {
      parentPort!.postMessage({ result });
    }
  } catch (error) {
    parentPort!.postMessage({ error: { message: (error as Error).message, stack: (error as Error).stack } });
  }
});
