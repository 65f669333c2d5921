/**
 * One backend per worker: the integration files run two at a time, and the files of one worker share its
 * backend (a seeded local instance) one after another, as the whole suite shared one before. Worker 1 uses
 * the project's own instance (`npm run test:integration` starts it); this global setup starts worker 2's on
 * ports of its own, with its data in `.data/test-worker-2` (kept between runs like the project's, and stopped
 * afterwards only when this run started it). `worker-env.ts` points each worker's tests at its backend.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { WORKER_BACKENDS } from './worker-env.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'supabase/local/cli.ts');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
}

export default function setup(): () => void {
  const started: string[] = [];
  for (const backend of WORKER_BACKENDS.slice(1)) {
    const dataDir = join(ROOT, backend.dataDir);
    if (cli('status', '--data-dir', dataDir).status === 0) continue;
    const start = cli('start', '--data-dir', dataDir, '--api-port', String(backend.apiPort), '--db-port', String(backend.dbPort));
    if (start.status !== 0) throw new Error(`The backend of integration worker ${backend.dataDir} did not start:\n${start.stdout}${start.stderr}`);
    started.push(dataDir);
  }
  return () => {
    for (const dataDir of started) cli('stop', '--data-dir', dataDir);
  };
}
