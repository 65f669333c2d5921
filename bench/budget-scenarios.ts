/**
 * The publishing scenarios of `npm run bench:budget` (bench/budget.ts runs each, bench/budget-sim.ts simulates one),
 * over one 30-day billing cycle: June 2027, the team's cycle starting on the 1st.
 */
export const CYCLE_START = Date.parse('2027-06-01T00:00:00Z');
export const DAY = 86_400_000;
export const CYCLE_END = CYCLE_START + 30 * DAY;
/** A build's time from the hook call to `ready`: a small site's Netlify build, under the 30 s a lone publish may take. */
export const BUILD_MS = 20_000;
export const CREDITS_PER_DEPLOY = 15;
/** The share of the allotment builds may use; the rest is left for bandwidth, requests and functions. */
export const BUILD_SHARE_PERCENT = 80;
/** What a team "as today" has: credits no cycle of these scenarios reaches (the most a team may be given). */
export const AMPLE_CREDITS = 10_000_000;

/** An edit of a site's latest live post, or deliveries by the writing tool; `at` from the day's start. */
export type Change = { at: number; kind: 'edit' | 'delivery'; count?: number };
export type Scenario = {
  key: string;
  title: string;
  sites: number;
  /** The team's monthly credits. */
  credits: number;
  /** The site's publishing queue (UTC), filled with the cycle's posts at its start; none: posts arrive by webhook. */
  queue?: (site: number) => { postsPerDay: number; windowStart: string; windowEnd: string };
  changes: (site: number, day: number) => Change[];
};

const MINUTE = 60_000;
const clock = (hours: number, minutes = 0) => hours * 60 * MINUTE + minutes * MINUTE;
const time = (at: number) => new Date(at).toISOString().slice(11, 16);

export const SCENARIOS: Scenario[] = [
  {
    key: 'a', title: 'One site on Free: a post a day (its queue, 09:00), an edit every other day', sites: 1, credits: 300,
    queue: () => ({ postsPerDay: 1, windowStart: '09:00', windowEnd: '17:00' }),
    changes: (_site, day) => (day % 2 === 1 ? [{ at: clock(15), kind: 'edit' }] : []),
  },
  {
    key: 'b', title: 'A Pro team of 30 sites: three queued posts and an edit a day each; one day, 50 deliveries to one site', sites: 30, credits: 5_000,
    // The sites' queues in three groups ten minutes apart, so the team's slots do not all fall in one minute.
    queue: (site) => ({ postsPerDay: 3, windowStart: time(clock(9, (site % 3) * 10)), windowEnd: time(clock(17, (site % 3) * 10)) }),
    changes: (site, day) => [
      { at: clock(12, 30 + (site % 3) * 10), kind: 'edit' },
      ...(site === 0 && day === 9 ? [{ at: clock(10, 5), kind: 'delivery' as const, count: 50 }] : []),
    ],
  },
  {
    key: 'c', title: 'An ample allotment (1,000,000 credits): one delivery a day, each a lone publish', sites: 1, credits: 1_000_000,
    changes: () => [{ at: clock(9), kind: 'delivery' }],
  },
];
