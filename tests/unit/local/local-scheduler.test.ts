import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeRun, findScheduledFunctions, minuteStep, schedulerDisabled, startScheduler } from '../../../netlify/local/scheduler.ts';

const FUNCTIONS_DIR = join(import.meta.dirname, '../../../netlify/functions');

describe('minuteStep', () => {
  it('understands every minute and minute steps', () => {
    expect(minuteStep('* * * * *')).toBe(1);
    expect(minuteStep(' */5  * * * * ')).toBe(5);
  });

  it.each(['0 * * * *', '*/0 * * * *', '* * * *', '@hourly', '*/5 1 * * *', '1-5 * * * *'])('refuses %s loudly', (cron) => {
    expect(() => minuteStep(cron)).toThrow(/understands/);
  });
});

describe('findScheduledFunctions', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scheduler-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds publish-scheduled, every minute, and nothing else in the project', () => {
    expect(findScheduledFunctions(FUNCTIONS_DIR).map(({ name, schedule, everyMinutes }) => ({ name, schedule, everyMinutes }))).toEqual([
      { name: 'publish-scheduled', schedule: '* * * * *', everyMinutes: 1 },
    ]);
  });

  it('names the file of a schedule it cannot run', () => {
    writeFileSync(join(dir, 'nightly.mts'), "export default async () => new Response();\nexport const config = { schedule: '0 3 * * *' };\n");
    expect(() => findScheduledFunctions(dir)).toThrow(/nightly\.mts.*0 3 \* \* \*/);
  });

  it('refuses a schedule that is not a string literal', () => {
    writeFileSync(join(dir, 'computed.mts'), 'const every = "* * * * *";\nexport const config = { schedule: every };\n');
    expect(() => findScheduledFunctions(dir)).toThrow(/computed\.mts: cannot read its schedule/);
  });

  it('ignores functions without a schedule and files that are not functions', () => {
    writeFileSync(join(dir, 'plain.mts'), "export const config = { path: '/api/plain' };\n");
    writeFileSync(join(dir, 'notes.md'), "schedule: '0 3 * * *'\n");
    mkdirSync(join(dir, 'lib.mts.d'));
    expect(findScheduledFunctions(dir)).toEqual([]);
  });
});

describe('schedulerDisabled', () => {
  it('is off only when LOCAL_SCHEDULER says so', () => {
    expect(schedulerDisabled({})).toBe(false);
    expect(schedulerDisabled({ LOCAL_SCHEDULER: 'on' })).toBe(false);
    expect(schedulerDisabled({ LOCAL_SCHEDULER: 'off' })).toBe(true);
    expect(schedulerDisabled({ LOCAL_SCHEDULER: 'OFF ' })).toBe(true);
  });
});

describe('describeRun', () => {
  it("summarizes publish-scheduled's answer: a hook that answered is \"hook called\", not a build that succeeded", () => {
    const body = JSON.stringify({
      published: ['p1', 'p2'],
      rebuilds: [{ organization_slug: 'scale-pro', request_count: 3, outcome: 'hook_called' }, { organization_slug: 'evergreen-landscaping', request_count: 1, outcome: 'skipped', error: 'No build hook configured for this organization' }],
    });
    expect(describeRun(200, body)).toBe('published 2 post(s), rebuilds: scale-pro (3 request(s)) hook called; evergreen-landscaping (1 request(s)) skipped: No build hook configured for this organization');
    expect(describeRun(200, JSON.stringify({ published: [], rebuilds: [] }))).toBe('published 0 post(s), rebuilds: none due');
  });

  it('shows the status and the start of any other answer', () => {
    expect(describeRun(500, '{"message":"publish-scheduled failed (reference abc)"}')).toBe('answered 500: {"message":"publish-scheduled failed (reference abc)"}');
    expect(describeRun(204, '')).toBe('answered 204');
  });
});

describe('startScheduler', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scheduler-run-'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('calls each function at the start of its due minutes as Netlify does, logs one line per run, and stops', async () => {
    const calls = join(dir, 'calls.json');
    writeFileSync(
      join(dir, 'every-other.mjs'),
      `import { appendFileSync } from 'node:fs';
export default async (req) => {
  appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ method: req.method, event: req.headers.get('x-nf-event'), url: req.url, body: await req.json() }) + '\\n');
  return Response.json({ published: ['a'], rebuilds: [] });
};
export const config = { schedule: '*/2 * * * *' };
`,
    );
    vi.setSystemTime(new Date('2026-11-23T10:00:30Z'));
    const lines: string[] = [];
    const scheduler = startScheduler({ dir, siteUrl: 'http://localhost:8893', log: (line) => lines.push(line) });
    expect(scheduler.functions.map((fn) => fn.name)).toEqual(['every-other']);

    await vi.advanceTimersByTimeAsync(29_000); // 10:00:59: nothing yet
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000); // 10:01:01: minute 1 is not due for */2
    expect(lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000); // 10:02:01: due
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toMatch(/^\[scheduler\] every-other \(\d+\.\d s\): published 1 post\(s\), rebuilds: none due$/);

    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(lines).toHaveLength(1);
    const { readFileSync } = await import('node:fs');
    const [call] = readFileSync(calls, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(call).toEqual({
      method: 'POST',
      event: 'schedule',
      url: 'http://localhost:8893/.netlify/functions/every-other',
      body: { next_run: '2026-11-23T10:04:00.000Z' },
    });
  });

  it('logs a failing function without stopping', async () => {
    writeFileSync(join(dir, 'broken.mjs'), "export default async () => { throw new Error('boom'); };\nexport const config = { schedule: '* * * * *' };\n");
    vi.setSystemTime(new Date('2026-11-23T10:00:59Z'));
    const lines: string[] = [];
    const scheduler = startScheduler({ dir, siteUrl: 'http://localhost:8893', log: (line) => lines.push(line) });
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.waitFor(() => expect(lines).toEqual(['[scheduler] broken failed: boom']));
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    await scheduler.stop();
  });
});
