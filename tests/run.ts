/**
 * `npm test`: runs the unit, integration and end-to-end suites one after the other (the browser suite in
 * two runs: against `npm run serve`, then `npm run dev`'s publishing), lets each print its own report, and
 * ends with one line `N passed, M failed[, K skipped]` summed over all of them. Exits non-zero when any test failed or any suite could not run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const results = join(import.meta.dirname, '.results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

interface Counts { passed: number; failed: number; skipped: number }

function run(script: string, env: Record<string, string>): number {
  const child = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', env: { ...process.env, ...env } });
  return child.status ?? 1;
}

/** Vitest's JSON reporter (Jest-compatible shape). */
function vitestCounts(file: string): Counts {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

/** Playwright's JSON reporter: `expected` passed, `unexpected` failed, `flaky` passed on retry. */
function playwrightCounts(file: string): Counts {
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
}

const suites: { script: string; file: string; env: Record<string, string>; read: (f: string) => Counts }[] = [
  { script: 'test:unit', file: 'unit.json', env: {}, read: vitestCounts },
  { script: 'test:integration', file: 'integration.json', env: {}, read: vitestCounts },
  { script: 'test:e2e', file: 'e2e.json', env: {}, read: playwrightCounts },
  // After the suite's `npm run serve` has stopped: netlify dev and netlify serve share .netlify/ in the project.
  { script: 'test:e2e:dev', file: 'e2e-dev.json', env: {}, read: playwrightCounts },
];

// The suites start the local backend when it is not running (`ensure`); stop it afterwards only then,
// so a developer's running backend is left alone and CI leaves no background process behind.
const backendWasRunning = spawnSync('node', ['supabase/local/cli.ts', 'status'], { stdio: 'ignore' }).status === 0;

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const broken: string[] = [];
for (const suite of suites) {
  const file = join(results, suite.file);
  const status = run(suite.script, { ...suite.env, TEST_REPORT_FILE: file });
  let counts: Counts | undefined;
  try {
    counts = suite.read(file);
  } catch {
    counts = undefined;
  }
  if (!counts) {
    broken.push(`${suite.script} produced no report (exit ${status})`);
    total.failed += 1;
    continue;
  }
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
  if (status !== 0 && counts.failed === 0) {
    broken.push(`${suite.script} exited ${status} with no failed test`);
    total.failed += 1;
  }
}

if (!backendWasRunning) spawnSync('node', ['supabase/local/cli.ts', 'stop'], { stdio: 'inherit' });

for (const line of broken) console.error(`✗ ${line}`);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);
