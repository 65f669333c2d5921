/**
 * `npm test`: runs the unit suite, then the integration suite with the browser spec of `npm run dev` beside it
 * (it has the project's backend to itself: the integration workers have backends of their own), then the
 * browser suite against `npm run serve` (not beside `npm run dev`: the two share the project's .netlify/). Each
 * prints its own report (the one beside, once it is done); then where the time went (each suite's wall time
 * and test count, and the ten slowest test files), and last one line `N passed, M failed[, K skipped]` summed
 * over all of them. Exits non-zero when any test failed or any suite could not run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const results = join(import.meta.dirname, '.results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

interface Counts { passed: number; failed: number; skipped: number }
/** A test file and the time its tests took, as its suite's report gives it. */
interface FileTime { suite: string; file: string; seconds: number }

/** Runs an npm script; its output goes straight through, or (`held`) is printed once it is done. */
function run(script: string, env: Record<string, string>, held: boolean): Promise<number> {
  const child = spawn('npm', ['run', '--silent', script], { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code) => {
      if (held) process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

type Report = { counts: Counts; files: { file: string; seconds: number }[] };

/** Vitest's JSON reporter (Jest-compatible shape); a file's time runs from its first test's start to its end. */
function vitestReport(file: string): Report {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return {
    counts: {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
    },
    files: report.testResults.map((result: { name: string; startTime: number; endTime: number }) => ({
      file: relative(root, result.name),
      seconds: (result.endTime - result.startTime) / 1000,
    })),
  };
}

/** A Playwright suite (JSON reporter) and its nested suites' specs. */
type PlaywrightSuite = { file: string; specs?: { tests: { results: { duration: number }[] }[] }[]; suites?: PlaywrightSuite[] };

/**
 * Playwright's JSON reporter: `expected` passed, `unexpected` failed, `flaky` passed on retry. A file's time is
 * the sum of its tests' durations (hooks and fixtures included; tests of one file never run side by side here).
 */
function playwrightReport(file: string): Report {
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8')) as { stats: Record<string, number>; suites: PlaywrightSuite[] };
  const milliseconds = (suite: PlaywrightSuite): number =>
    (suite.specs ?? []).flatMap((spec) => spec.tests.flatMap((test) => test.results.map((result) => result.duration))).reduce((a, b) => a + b, 0) +
    (suite.suites ?? []).map(milliseconds).reduce((a, b) => a + b, 0);
  return {
    counts: { passed: stats.expected! + stats.flaky!, failed: stats.unexpected!, skipped: stats.skipped! },
    files: suites.map((suite) => ({ file: join('tests/e2e', suite.file), seconds: milliseconds(suite) / 1000 })),
  };
}

type Suite = { script: string; file: string; env: Record<string, string>; read: (f: string) => Report };
const unit: Suite = { script: 'test:unit', file: 'unit.json', env: {}, read: vitestReport };
const integration: Suite = { script: 'test:integration', file: 'integration.json', env: {}, read: vitestReport };
const e2e: Suite = { script: 'test:e2e', file: 'e2e.json', env: {}, read: playwrightReport };
const e2eDev: Suite = { script: 'test:e2e:dev', file: 'e2e-dev.json', env: {}, read: playwrightReport };
/** Suites of a stage run side by side; stages one after another. */
const stages: Suite[][] = [[unit], [integration, e2eDev], [e2e]];

// The suites start the local backend when it is not running (`ensure`); stop it afterwards only then,
// so a developer's running backend is left alone and CI leaves no background process behind.
const backendWasRunning = spawnSync('node', ['supabase/local/cli.ts', 'status'], { stdio: 'ignore' }).status === 0;

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const broken: string[] = [];
const timings: { suite: string; seconds: number; tests: number | null }[] = [];
const fileTimes: FileTime[] = [];
const startedAll = Date.now();
// The spec of `npm run dev` starts its server on the project's backend: up before the stage that runs it.
spawnSync('node', ['supabase/local/cli.ts', 'ensure'], { stdio: 'inherit' });
for (const stage of stages) {
  const beside = stage.length > 1 ? ` (beside ${stage[0]!.script})` : '';
  await Promise.all(stage.map((suite, index) => runSuite(suite, index > 0 ? beside : '')));
}

/** Runs one suite and adds up its report; `beside` names the suite it runs beside (its output is held till done). */
async function runSuite(suite: Suite, beside: string): Promise<void> {
  const file = join(results, suite.file);
  const started = Date.now();
  const status = await run(suite.script, { ...suite.env, TEST_REPORT_FILE: file }, beside !== '');
  let report: Report | undefined;
  try {
    report = suite.read(file);
  } catch {
    report = undefined;
  }
  timings.push({ suite: `${suite.script}${beside}`, seconds: (Date.now() - started) / 1000, tests: report ? report.counts.passed + report.counts.failed + report.counts.skipped : null });
  if (!report) {
    broken.push(`${suite.script} produced no report (exit ${status})`);
    total.failed += 1;
    return;
  }
  fileTimes.push(...report.files.map((each) => ({ suite: suite.script, ...each })));
  const { counts } = report;
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
  if (status !== 0 && counts.failed === 0) {
    broken.push(`${suite.script} exited ${status} with no failed test`);
    total.failed += 1;
  }
}

if (!backendWasRunning) spawnSync('node', ['supabase/local/cli.ts', 'stop'], { stdio: 'inherit' });

printTimings();
for (const line of broken) console.error(`✗ ${line}`);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);

/**
 * Where the time went: a table per suite (wall time, tests, share of the run; a suite run beside another
 * overlaps it), then the ten slowest files.
 */
function printTimings(): void {
  const all = (Date.now() - startedAll) / 1000;
  const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
  const rows = [
    ['suite', 'wall time', 'tests', 'share'],
    ...timings.map(({ suite, seconds, tests }) => [suite, clock(seconds), tests === null ? 'no report' : String(tests), `${Math.round((100 * seconds) / all)}%`]),
    ['all', clock(all), String(timings.reduce((sum, { tests }) => sum + (tests ?? 0), 0)), '100%'],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log('\nWhere the time went:');
  for (const row of rows) console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   ')}`);
  console.log('\nThe ten slowest test files:');
  for (const { suite, file, seconds } of [...fileTimes].sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    console.log(`  ${seconds.toFixed(1).padStart(7)} s   ${suite.padEnd(16)} ${file}`);
  }
  console.log('');
}
