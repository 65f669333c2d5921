/**
 * A function instance of the `faults` area (bench/faults.ts), in a process of its own so that it can be killed
 * as a crash kills one, with the functions' env from the parent:
 *
 *   node bench/faults-child.ts rebuilds <organization id>             flushes the organization's due rebuilds
 *   node bench/faults-child.ts indexnow <organization id> <deploy id> submits what deploy made live (IndexNow)
 *   node bench/faults-child.ts scheduler                               one run of the scheduled function
 *
 * `rebuilds` and `indexnow` run the product's own code (flushDueRebuilds, as the back office's nudge does;
 * submitLiveChanges, as a deploy notification does) until its first call that is not to the backend: the hook
 * call or the search engine's. That call never leaves the process: it prints `outgoing <url>` and waits, and the
 * parent kills the process with SIGKILL on that line. So the crash falls after the claim (the backend has
 * recorded it) and before the hook or the engine heard of it. `scheduler` prints the scheduled function's answer
 * and fails unless it is 200.
 */
import publishScheduled from '../netlify/functions/publish-scheduled.mts';
import { submitLiveChanges } from '../src/lib/server/indexnow.ts';
import { flushDueRebuilds } from '../src/lib/server/rebuilds.ts';
import { serviceClient } from '../src/lib/server/service-client.ts';

const [mode, organizationId, deployId] = process.argv.slice(2);
const backend = process.env.SUPABASE_URL!;

if (mode === 'rebuilds' || mode === 'indexnow') {
  const platformFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith(backend)) return platformFetch(input, init);
    // Written synchronously (stdout is a pipe): the parent reads it and kills this process, which meanwhile waits
    // as on a call that never answers (the timer keeps it alive: a pending promise alone would let it exit).
    process.stdout.write(`outgoing ${url}\n`);
    return new Promise<Response>(() => setInterval(() => {}, 60_000));
  };
}

if (mode === 'rebuilds') {
  await flushDueRebuilds(serviceClient(), { organizationId });
} else if (mode === 'indexnow') {
  await submitLiveChanges(serviceClient(), organizationId!, deployId!);
} else if (mode === 'scheduler') {
  const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
  process.stdout.write(`${response.status} ${await response.text()}\n`);
  process.exitCode = response.ok ? 0 : 1;
} else {
  throw new Error('usage: node bench/faults-child.ts <rebuilds <organization id> | indexnow <organization id> <deploy id> | scheduler>');
}
