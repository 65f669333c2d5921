/**
 * One backend per worker: the integration files run four at a time, and the files of one worker share its
 * backend (a seeded local instance) one after another, as the whole suite shared one before. Each worker's
 * (ports 24331/24332, 24341/24342, 24351/24352 and 24361/24362, data in `.data/test-worker-N`, kept between runs like the project's) is
 * started by worker-env.ts before the worker's first file, so a run of one file starts one. This global
 * teardown stops those this run started.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { STARTED_BY_SUITE, WORKER_BACKENDS } from './worker-env.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

export default function setup(): () => void {
  return () => {
    for (const backend of WORKER_BACKENDS) {
      const dataDir = join(ROOT, backend.dataDir);
      if (!existsSync(join(dataDir, STARTED_BY_SUITE))) continue;
      spawnSync(process.execPath, [join(ROOT, 'supabase/local/cli.ts'), 'stop', '--data-dir', dataDir], { cwd: ROOT });
      rmSync(join(dataDir, STARTED_BY_SUITE), { force: true });
    }
  };
}
