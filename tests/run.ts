/**
 * `npm test`: runs the unit and integration suites with the dev server's browser spec beside them, then the
 * main browser suite (against `npm run serve`) alone (STAGES below); lets each print its own report (each line
 * behind its suite's name), then prints where the time went (each suite's wall time and test count, and the
 * ten slowest test files), what failed (each failed test, or error outside a test, in one line), and ends with
 * one line `N passed, M failed[, K skipped]` summed over all of them. Exits non-zero when any test failed or any
 * suite could not run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireBuildLock } from '../netlify/local/site-build.ts';
import { SERVED_SITE_ENV, SERVED_SITE_URL } from './e2e/support/served-site.ts';
import { firstLine, type SuiteReport } from './vitest-reporter.ts';

const results = join(import.meta.dirname, '.results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

/** A test file and the time its tests took, as its suite's report gives it. */
interface FileTime { suite: string; file: string; seconds: number }

/**
 * Runs one suite's npm script; its output goes to the console a line at a time, each line behind the suite's
 * name (two suites write at once). Resolves with its exit status.
 */
function run(script: string, env: Record<string, string>): Promise<number> {
  const child = npmRun(script, env);
  return new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
}

/** `npm run <script>` with its output labelled (see `run`); `detached` gives it a process group of its own. */
function npmRun(script: string, env: Record<string, string>, detached = false): ChildProcess {
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, detached });
  const label = `${script.replace(/^test:/, '').padEnd(11)}│ `;
  for (const [stream, out] of [[child.stdout!, process.stdout], [child.stderr!, process.stderr]] as const) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${label}${line}\n`));
  }
  return child;
}

/** The Vitest suites write their report themselves (tests/vitest-reporter.ts). */
const vitestReport = (file: string): SuiteReport => JSON.parse(readFileSync(file, 'utf8'));

/** A Playwright suite (JSON reporter) and its nested suites' specs. */
type PlaywrightSuite = {
  file: string;
  specs?: { title: string; tests: { status: string; results: { duration: number; errors?: { message?: string }[] }[] }[] }[];
  suites?: PlaywrightSuite[];
};

/**
 * Playwright's JSON reporter: `expected` passed, `unexpected` failed, `flaky` passed on retry. A file's time is
 * the sum of its tests' durations (hooks and fixtures included; tests of one file never run side by side here).
 */
function playwrightReport(file: string): SuiteReport {
  const { stats, suites, errors } = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: Record<string, number>;
    suites: PlaywrightSuite[];
    errors: { message?: string }[];
  };
  const specs = (suite: PlaywrightSuite): NonNullable<PlaywrightSuite['specs']> => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
  const failures = suites.flatMap((suite) =>
    specs(suite).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected')
        .map((test) => `${join('tests/e2e', suite.file)} › ${spec.title}: ${firstLine(test.results.at(-1)?.errors?.[0]?.message)}`),
    ),
  );
  return {
    counts: { passed: stats.expected! + stats.flaky!, failed: stats.unexpected!, skipped: stats.skipped! },
    files: suites.map((suite) => ({
      file: join('tests/e2e', suite.file),
      seconds: specs(suite).flatMap((spec) => spec.tests.flatMap((test) => test.results.map((result) => result.duration))).reduce((a, b) => a + b, 0) / 1000,
    })),
    failures: [...failures, ...errors.map((error) => `${file}: ${firstLine(error.message)}`)],
  };
}

type Suite = { script: string; file: string; read: (f: string) => SuiteReport };
/** What a lane runs, one after another: a suite, or a step that prepares a later stage. */
type Step = Suite | (() => Promise<void>);

/**
 * The suites in stages, each stage's lanes side by side (a lane runs its suites one after another): first the
 * unit and integration suites, with the dev server's spec beside them (it mostly waits for the scheduler's
 * minute, in a project copy on a backend of its own: tests/e2e/support/dev-server-world.ts); then the main
 * browser suite alone. The run is bound by the two cores, and the browser suite is the one that suffers from
 * company: with the unit suite and the dev server's spec beside it (and the integration suite alone first) the
 * run took 13:40 instead of 12:43, the browser suite 8:58 instead of 7:30, and the dev server did not answer in
 * time. It also waits on site builds that take the project's build lock, as the integration suite's builds do:
 * run beside it, the integration suite took the whole run to 15 minutes and timed out on the lock and on
 * Postgres's statement timeout.
 */
const SUITES = {
  unit: { script: 'test:unit', file: 'unit.json', read: vitestReport },
  integration: { script: 'test:integration', file: 'integration.json', read: vitestReport },
  e2e: { script: 'test:e2e', file: 'e2e.json', read: playwrightReport },
  e2eDev: { script: 'test:e2e:dev', file: 'e2e-dev.json', read: playwrightReport },
} satisfies Record<string, Suite>;
const STAGES: Step[][][] = [[[SUITES.unit, SUITES.integration], [SUITES.e2eDev, startServedSite]], [[SUITES.e2e]]];

// The suites start the local backend when it is not running (`ensure`); stop it afterwards only then,
// so a developer's running backend is left alone and CI leaves no background process behind.
const backendWasRunning = spawnSync('node', ['supabase/local/cli.ts', 'status'], { stdio: 'ignore' }).status === 0;

/**
 * What every suite gets: the backends they start store passwords at bcrypt's least cost (the suites sign in
 * thousands of times; supabase/local/auth/users.ts); and every Node.js process they start keeps the code it
 * compiled in Node's compile cache (`NODE_COMPILE_CACHE`, V8's code cache on disk, checked against each file's
 * content), so the next process that loads the same modules skips compiling them: the suites start Node.js some
 * 300 times (a process per test file, the builds, the servers). The unit suite alone: 24 to 19 CPU seconds. Astro,
 * Vite and netlify-cli turn the cache on for themselves anyway, in the system's temporary folder; here it is
 * under node_modules/.cache, removed with node_modules.
 */
const SUITE_ENV = { LOCAL_AUTH_HASH_COST: '4', NODE_COMPILE_CACHE: join(import.meta.dirname, '..', 'node_modules', '.cache', 'node-compile-cache') };

// Started once here, before the suites: two at once would otherwise race to start it (`ensure`).
const ensured = spawnSync('node', ['supabase/local/cli.ts', 'ensure'], { stdio: 'inherit', env: { ...process.env, ...SUITE_ENV } });
if (ensured.status !== 0) {
  console.error('✗ The local backend did not start: no suite can run.');
  process.exit(1);
}

const total: SuiteReport['counts'] = { passed: 0, failed: 0, skipped: 0 };
const broken: string[] = [];
const timings: { suite: string; from: number; seconds: number; tests: number | null }[] = [];
const fileTimes: FileTime[] = [];
const failures: string[] = [];
const startedAll = Date.now();

/**
 * The browser suite's server, started in the dev server's lane once its spec is done: it builds the site (holding
 * the build lock), bundles the functions and starts serving while the integration suite finishes, about 22 s that
 * the browser suite, which would start it itself, no longer waits for.
 * Not started when E2E_BASE_URL names a server already; when it does not answer, the browser suite starts its own.
 */
let servedSite: ChildProcess | undefined;

async function startServedSite(): Promise<void> {
  if (process.env.E2E_BASE_URL) return;
  // Its first build is netlify-cli's (`npm run build`), which takes no build lock; the integration suite's builds
  // share Astro's caches in the project: they wait until the server answers, its build done.
  const release = await acquireBuildLock(() => {});
  const child = npmRun('serve', { ...SUITE_ENV, ...SERVED_SITE_ENV }, true);
  const answers = () => fetch(SERVED_SITE_URL).then(() => true, () => false);
  try {
    const until = Date.now() + 300_000;
    while (Date.now() < until && child.exitCode === null) {
      if (await answers()) {
        servedSite = child;
        return;
      }
      await sleep(500);
    }
    await stopServedSite(child);
  } finally {
    release();
  }
}

/** SIGTERM to the server's process group (netlify/local/cli.ts stops netlify-cli's own on it), SIGKILL after 20 s. */
async function stopServedSite(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.on('close', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // Gone already.
    }
  };
  signal('SIGTERM');
  if (!(await Promise.race([closed.then(() => true), sleep(20_000).then(() => false)]))) signal('SIGKILL');
}

async function runSuite(suite: Suite): Promise<void> {
  const file = join(results, suite.file);
  const started = Date.now();
  const served: Record<string, string> = suite === SUITES.e2e && servedSite ? { E2E_BASE_URL: SERVED_SITE_URL } : {};
  const status = await run(suite.script, { ...SUITE_ENV, TEST_REPORT_FILE: file, ...served });
  let report: SuiteReport | undefined;
  try {
    report = suite.read(file);
  } catch {
    report = undefined;
  }
  timings.push({
    suite: suite.script,
    from: (started - startedAll) / 1000,
    seconds: (Date.now() - started) / 1000,
    tests: report ? report.counts.passed + report.counts.failed + report.counts.skipped : null,
  });
  if (!report) {
    broken.push(`${suite.script} produced no report (exit ${status})`);
    total.failed += 1;
    return;
  }
  fileTimes.push(...report.files.map((each) => ({ suite: suite.script, ...each })));
  failures.push(...report.failures);
  const { counts } = report;
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
  if (status !== 0 && counts.failed === 0) {
    broken.push(`${suite.script} exited ${status} with no failed test`);
    total.failed += 1;
  }
}

for (const stage of STAGES) {
  await Promise.all(
    stage.map(async (lane) => {
      for (const step of lane) await (typeof step === 'function' ? step() : runSuite(step));
    }),
  );
}
if (servedSite) await stopServedSite(servedSite);

if (!backendWasRunning) spawnSync('node', ['supabase/local/cli.ts', 'stop'], { stdio: 'inherit' });

printTimings();
// The suites' own reports scroll far up; what failed is repeated here, where a CI log's tail shows it.
if (failures.length) console.error(`What failed:\n${failures.map((line) => `  ✗ ${line}`).join('\n')}\n`);
for (const line of broken) console.error(`✗ ${line}`);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exit(total.failed > 0 ? 1 : 0);

/**
 * Where the time went: a table per suite (when it started, its wall time, tests, and its share of the run's wall
 * time; suites that ran side by side overlap, so the shares add up to more than 100%), then the ten slowest files.
 */
function printTimings(): void {
  const all = (Date.now() - startedAll) / 1000;
  const clock = (seconds: number) => {
    const whole = Math.round(seconds);
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
  };
  const rows = [
    ['suite', 'started', 'wall time', 'tests', 'share'],
    ...[...timings]
      .sort((a, b) => a.from - b.from)
      .map(({ suite, from, seconds, tests }) => [suite, `+${clock(from)}`, clock(seconds), tests === null ? 'no report' : String(tests), `${Math.round((100 * seconds) / all)}%`]),
    ['all', '', clock(all), String(timings.reduce((sum, { tests }) => sum + (tests ?? 0), 0)), '100%'],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const describeStage = (stage: Step[][]) =>
    stage
      .map((lane) => lane.map((step) => (typeof step === 'function' ? 'the served site' : step.script.replace(/^test:/, ''))).join(' then '))
      .join(' beside ');
  console.log(`\nWhere the time went (${STAGES.map(describeStage).join('; then ')}):`);
  for (const row of rows) console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   ')}`);
  console.log('\nThe ten slowest test files:');
  for (const { suite, file, seconds } of [...fileTimes].sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    console.log(`  ${seconds.toFixed(1).padStart(7)} s   ${suite.padEnd(16)} ${file}`);
  }
  console.log('');
}
