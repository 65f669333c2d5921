import { defineConfig } from 'vitest/config';

// The list, not worker-env.ts: that module starts a worker's backend when it is imported.
import HeaviestFirst from './support/heaviest-first.ts';
import { SUITE_HASH_COST, WORKER_BACKENDS } from './support/worker-backends.ts';

// Integration tests talk to real services (the local backend, functions over HTTP). Four files run at a time,
// each worker on a backend of its own (support/worker-backends.ts), the files of one worker one after another
// on it. Four on two cores, because a file spends much of its time waiting (on HTTP, Postgres, timers, a
// build): with two workers the suite kept one core busy on average and took 4:03 here, with four 1.4 cores
// and 3:04.
export default defineConfig({
  test: {
    name: 'integration',
    include: ['tests/integration/**/*.test.ts'],
    fileParallelism: true,
    maxWorkers: WORKER_BACKENDS.length,
    // The files that take minutes start first (support/heaviest-first.ts).
    sequence: { sequencer: HeaviestFirst },
    globalSetup: ['tests/integration/support/worker-backends.ts'],
    setupFiles: ['tests/integration/support/worker-env.ts'],
    // A local rebuild runs a whole site build; tests that exercise rebuilds set their own window, hook and
    // REBUILD_AT_ONCE (off here: a lone delivery would otherwise start a local build).
    // The backends the suite starts hash passwords at bcrypt's least cost (supabase/local/auth/users.ts).
    env: { REBUILD_QUIET_WINDOW_MS: '3600000', REBUILD_AT_ONCE: 'off', LOCAL_AUTH_HASH_COST: SUITE_HASH_COST },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Under `npm test` also its summary (tests/vitest-reporter.ts), which tests/run.ts reads.
    reporters: process.env.TEST_REPORT_FILE ? ['default', './tests/vitest-reporter.ts'] : ['default'],
  },
});
