/**
 * A Vitest reporter for `npm test` (tests/run.ts): writes to TEST_REPORT_FILE the suite's counts, each file's
 * time and what failed: failed tests with their first error line, and errors outside any test (a hook that
 * threw, which leaves its tests skipped; an unhandled error), which Vitest's JSON report leaves out. The default
 * reporter still prints the whole story while the suite runs; this is the summary `npm test` repeats at its end.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** What one suite run reports to tests/run.ts (the Playwright suites are read into the same shape). */
export interface SuiteReport {
  counts: { passed: number; failed: number; skipped: number };
  files: { file: string; seconds: number }[];
  /** `file › test: first line of the error`, or `file: first line` for an error outside a test. */
  failures: string[];
}

/** The first line of an error's message, which names what went wrong. */
export const firstLine = (message: string | undefined): string => (message ?? 'no message').trim().split('\n')[0]!.slice(0, 300);

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const output = process.env.TEST_REPORT_FILE;
    if (!output) return;
    const report: SuiteReport = { counts: { passed: 0, failed: 0, skipped: 0 }, files: [], failures: [] };
    for (const module of modules) {
      const file = relative(process.cwd(), module.moduleId);
      report.files.push({ file, seconds: module.diagnostic().duration / 1000 });
      const outside = [...module.errors(), ...[...module.children.allSuites()].flatMap((suite) => suite.errors())];
      for (const error of outside) report.failures.push(`${file}: ${firstLine(error.message)}`);
      for (const test of module.children.allTests()) {
        const { state, errors } = test.result();
        if (state === 'passed') report.counts.passed += 1;
        else if (state === 'failed') {
          report.counts.failed += 1;
          report.failures.push(`${file} › ${test.fullName}: ${firstLine(errors?.[0]?.message)}`);
        } else report.counts.skipped += 1;
      }
    }
    for (const error of unhandledErrors) report.failures.push(`unhandled error: ${firstLine(error.message)}`);
    writeFileSync(output, JSON.stringify(report));
  }
}
