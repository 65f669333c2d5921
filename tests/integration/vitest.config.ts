import { defineConfig } from 'vitest/config';

import { WORKER_BACKENDS } from './support/worker-env.ts';

// Integration tests talk to real services (the local backend, functions over HTTP). Two files run at a time
// (the machine's two cores), each worker on a backend of its own (support/worker-backends.ts), the files of
// one worker one after another on it.
export default defineConfig({
  test: {
    name: 'integration',
    include: ['tests/integration/**/*.test.ts'],
    fileParallelism: true,
    maxWorkers: WORKER_BACKENDS.length,
    globalSetup: ['tests/integration/support/worker-backends.ts'],
    setupFiles: ['tests/integration/support/worker-env.ts'],
    // A local rebuild runs a whole site build; tests that exercise rebuilds set their own window, hook and
    // REBUILD_AT_ONCE (off here: a lone delivery would otherwise start a local build).
    env: { REBUILD_QUIET_WINDOW_MS: '3600000', REBUILD_AT_ONCE: 'off' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: process.env.TEST_REPORT_FILE ? ['default', 'json'] : ['default'],
    outputFile: process.env.TEST_REPORT_FILE,
  },
});
