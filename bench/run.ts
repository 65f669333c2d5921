/**
 * `npm run bench [-- area ...]`: measures the product on this machine, writes `bench/report.md` (for people) and
 * `bench/report.json` (the same figures), and exits non-zero when a median breaks its budget.
 * `npm run bench:scale` (`-- scale`) measures the blog at 10,000 posts, which takes longer than the default run
 * may, into its own `bench/scale-report.md` / `.json`; `npm run bench:publishing` (`-- publishing`) measures
 * publishing to live (lone publishes, a run of articles, a burst; several minutes) into `bench/publishing-report.md` / `.json`;
 * `npm run bench:budget` (`-- budget`) simulates a 30-day billing cycle with the clock moved (bench/budget.ts) into
 * `bench/budget-report.md` / `.json`.
 * Not part of `npm test`: figures depend on the machine, budgets are checked here, never in tests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureAdmin } from './admin.ts';
import { measureAgency } from './agency.ts';
import { measureBudget } from './budget.ts';
import { measureLocalBackend } from './local-backend.ts';
import type { AreaReport, Figure } from './measure.ts';
import { measurePages } from './pages.ts';
import { measurePublishing } from './publishing.ts';
import { measureScale } from './scale.ts';
import { measureSiteBuild } from './site-build.ts';
import { measureWebhook } from './webhook.ts';
import { measureFaults } from './faults.ts';

/** The areas measured; `npm run bench -- backend` runs only the named ones. */
const areas: Record<string, () => Promise<Figure[] | AreaReport>> = {
  backend: measureLocalBackend,
  build: measureSiteBuild,
  pages: measurePages,
  admin: measureAdmin,
  webhook: measureWebhook,
  faults: measureFaults,
  agency: measureAgency,
};
/** Measured only when named, alone, into their own report. */
const separate: Record<string, () => Promise<Figure[] | AreaReport>> = { scale: measureScale, publishing: measurePublishing, budget: measureBudget };
const named = process.argv.slice(2);
const alone = named.find((name) => name in separate);
if (alone && named.length > 1) throw new Error(`\`${alone}\` runs alone (npm run bench:${alone})`);
const chosen = alone ? [alone] : named.filter((name) => name in areas);
const reportName = alone ? `${alone}-report` : 'report';
const started = performance.now();
const figures: Figure[] = [];
const sections: string[] = [];
const detail: Record<string, unknown> = {};
const minutesSince = (start: number) => Math.round((performance.now() - start) / 6000) / 10;
const timings: string[] = [];
for (const name of chosen.length ? chosen : Object.keys(areas)) {
  const areaStarted = performance.now();
  const measured = await (areas[name] ?? separate[name])!();
  timings.push(`${name} ${minutesSince(areaStarted)}`);
  const report = Array.isArray(measured) ? { figures: measured } : measured;
  figures.push(...report.figures);
  if (report.markdown) sections.push(report.markdown);
  if (report.detail !== undefined) detail[name] = report.detail;
}

const round = (n: number) => Math.round(n * 100) / 100;
const bound = (f: Figure) =>
  f.budget !== undefined ? `≤ ${f.budget} ${f.unit}` : f.minimum !== undefined ? `≥ ${f.minimum} ${f.unit}` : '—';
const rows = figures.map(
  (f) =>
    `| ${f.name} | ${round(f.median)} ${f.unit} | ${bound(f)} | ${f.ok ? 'ok' : '**over budget**'} | ${f.runs.length} |`,
);
const machine = `${process.platform} ${process.arch}, Node ${process.version}, ${new Date().toISOString()}`;
writeFileSync(
  join(import.meta.dirname, `${reportName}.md`),
  `# Benchmark report\n\nMeasured on ${machine} by \`npm run ${alone ? `bench:${alone}` : `bench${chosen.length ? ` -- ${chosen.join(' ')}` : ''}`}\`. Each figure is the median of its runs. ` +
    `Total time: ${minutesSince(started)} min (${timings.join(', ')}).\n\n` +
    `| figure | median | budget | status | runs |\n|---|---|---|---|---|\n${rows.join('\n')}\n` +
    sections.map((section) => `\n${section}\n`).join(''),
);
writeFileSync(
  join(import.meta.dirname, `${reportName}.json`),
  JSON.stringify({ measured_at: new Date().toISOString(), machine, figures: figures.map((f) => ({ ...f, median: round(f.median), runs: f.runs.map(round) })), detail }, null, 2) + '\n',
);
console.log(rows.join('\n'));
const broken = figures.filter((f) => !f.ok);
if (broken.length) {
  console.error(`Over budget: ${broken.map((f) => f.name).join('; ')}`);
  process.exit(1);
}
