import { defineConfig } from 'vitest/config';

// Integration tests talk to real services (the local backend, functions over HTTP): run files one at a time.
export default defineConfig({
  test: {
    name: 'integration',
    include: ['tests/integration/**/*.test.ts'],
    fileParallelism: false,
    // A local rebuild runs a whole site build; tests that exercise rebuilds set their own window, hook and
    // REBUILD_AT_ONCE (off here: a lone delivery would otherwise start a local build).
    env: { REBUILD_QUIET_WINDOW_MS: '3600000', REBUILD_AT_ONCE: 'off' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: process.env.TEST_REPORT_FILE ? ['default', 'json'] : ['default'],
    outputFile: process.env.TEST_REPORT_FILE,
  },
});
