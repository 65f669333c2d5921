/**
 * The local scheduler: runs the scheduled functions of netlify/functions on their schedules while `npm run
 * dev`/`serve` run, as Netlify does in production (netlify-cli's local servers never do; they only run a
 * scheduled function when something requests it). Each function's `export const config = { schedule: '<cron>' }`
 * is read from its source; every minute (`* * * * *`) and minute steps (`*\/N * * * *`) are understood, anything
 * else stops the server with the reason, so a schedule is never silently ignored.
 *
 * A run happens at the start of each due minute, calls the function's handler in this process with the
 * request Netlify sends (POST, `X-NF-Event: schedule`, `{ next_run }`), and logs one line with what the
 * function answered. A run still going when its next minute comes is not started twice. `stop()` clears the
 * timer and waits for the run in progress, so nothing is left behind when the server stops.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A scheduled function found in the functions folder. */
export type ScheduledFunction = { name: string; file: string; schedule: string; everyMinutes: number };

const FUNCTION_FILE = /\.(m?ts|m?js)$/;
const CONFIG_SCHEDULE = /export\s+const\s+config\b[^=]*=\s*\{[^}]*?\bschedule\s*:\s*(['"`])([^'"`]*)\1/s;
const MINUTE_MS = 60_000;

/** The minute step of a cron expression: `* * * * *` is 1, `*\/N * * * *` is N; throws on anything else. */
export function minuteStep(cron: string): number {
  const fields = cron.trim().split(/\s+/);
  const [minute, ...rest] = fields;
  if (fields.length === 5 && rest.every((field) => field === '*')) {
    if (minute === '*') return 1;
    const step = minute?.match(/^\*\/(\d+)$/);
    if (step && Number(step[1]) >= 1 && Number(step[1]) <= 60) return Number(step[1]);
  }
  throw new Error(`The local scheduler understands "* * * * *" and "*/N * * * *" only, not "${cron}"`);
}

/** The functions of `dir` whose source exports a `schedule`; throws on a schedule it cannot run. */
export function findScheduledFunctions(dir: string): ScheduledFunction[] {
  return readdirSync(dir)
    .filter((entry) => FUNCTION_FILE.test(entry))
    .sort()
    .flatMap((entry) => {
      const file = join(dir, entry);
      const source = readFileSync(file, 'utf8');
      const name = basename(entry, extname(entry));
      const match = source.match(CONFIG_SCHEDULE);
      if (!match) {
        if (/\bschedule\s*:/.test(source) && /export\s+const\s+config\b/.test(source)) {
          throw new Error(`${file}: cannot read its schedule (write it as a string literal in \`export const config\`)`);
        }
        return [];
      }
      const schedule = match[2]!;
      try {
        return [{ name, file, schedule, everyMinutes: minuteStep(schedule) }];
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
      }
    });
}

/** Whether the scheduler is switched off (`LOCAL_SCHEDULER=off`). */
export function schedulerDisabled(env: Record<string, string | undefined>): boolean {
  return ['off', '0', 'false', 'no'].includes((env.LOCAL_SCHEDULER ?? '').trim().toLowerCase());
}

/** One line about what a run answered: publish-scheduled's summary, else the status and the start of the body. */
export function describeRun(status: number, body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const summary = parsed as { published?: unknown; rebuilds?: unknown } | undefined;
  if (status < 400 && summary && Array.isArray(summary.published) && Array.isArray(summary.rebuilds)) {
    const rebuilds = (summary.rebuilds as { organization_slug?: string; request_count?: number; outcome?: string; error?: string }[]).map(
      (batch) => `${batch.organization_slug} (${batch.request_count} request(s)) ${batch.outcome?.replace('_', ' ')}${batch.error ? `: ${batch.error}` : ''}`,
    );
    return `published ${summary.published.length} post(s), rebuilds: ${rebuilds.length ? rebuilds.join('; ') : 'none due'}`;
  }
  const text = body.replace(/\s+/g, ' ').trim().slice(0, 300);
  return `answered ${status}${text ? `: ${text}` : ''}`;
}

type Handler = (req: Request, context?: unknown) => Promise<Response> | Response;

export type Scheduler = { functions: ScheduledFunction[]; stop: () => Promise<void> };

/**
 * Starts running the scheduled functions of `dir` at the start of each due minute. `siteUrl` is the address
 * the functions' requests carry; `log` receives one line per run.
 */
export function startScheduler(options: { dir: string; siteUrl: string; log?: (line: string) => void; now?: () => number }): Scheduler {
  const log = options.log ?? ((line: string) => console.log(line));
  const now = options.now ?? Date.now;
  const functions = findScheduledFunctions(options.dir);
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const runOne = async (fn: ScheduledFunction, minute: number): Promise<void> => {
    const started = now();
    try {
      const mod = (await import(pathToFileURL(fn.file).href)) as { default?: Handler; handler?: unknown };
      if (typeof mod.default !== 'function') throw new Error('it has no default export to call');
      const response = await mod.default(
        new Request(new URL(`/.netlify/functions/${fn.name}`, options.siteUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'Netlify Clockwork', 'x-nf-event': 'schedule' },
          body: JSON.stringify({ next_run: new Date((minute + fn.everyMinutes) * MINUTE_MS).toISOString() }),
        }),
        {},
      );
      const body = await response.text();
      log(`[scheduler] ${fn.name} (${((now() - started) / 1000).toFixed(1)} s): ${describeRun(response.status, body)}`);
    } catch (error) {
      log(`[scheduler] ${fn.name} failed: ${(error as Error).message}`);
    }
  };

  const tick = () => {
    if (stopped) return;
    const minute = Math.floor(now() / MINUTE_MS);
    for (const fn of functions) {
      if (minute % fn.everyMinutes !== 0) continue;
      if (running.has(fn.name)) {
        log(`[scheduler] ${fn.name}: the previous run is still going, this minute's run is skipped`);
        continue;
      }
      const run = runOne(fn, minute).finally(() => running.delete(fn.name));
      running.set(fn.name, run);
    }
    schedule();
  };
  // At the start of the next minute (a few ms late rather than early, so the minute number is the new one).
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, MINUTE_MS - (now() % MINUTE_MS) + 5);
  };

  if (functions.length) schedule();
  return {
    functions,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled(running.values());
    },
  };
}
