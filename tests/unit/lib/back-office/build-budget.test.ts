import { describe, expect, it } from 'vitest';
import {
  budgetForecast, cycleSummary, cycleUsage, forecastSentences, hostingTeamFormValues, manualBuildCost, moreCreditsSentence, nextPlan,
  parseHostingTeamForm, planOfForm, planSummary, siteSummary, withPlan,
} from '../../../../src/lib/back-office/build-budget.ts';
import type { BuildBudget, TeamUsage } from '../../../../src/schemas/hosting-team.ts';

/** Halfway through November's cycle (Nov 1 to Dec 1, 30 days, UTC): 15 days gone, 15 left. */
const NOW = new Date('2026-11-16T00:00:00.000Z');

/** Free's figures: 300 credits, 80% for builds at 15 a deploy, 16 builds a cycle; 10 used by the team. */
const budget = (over: Partial<BuildBudget> = {}): BuildBudget => ({
  team_id: 'team', team_name: 'Agency', monthly_credits: 300, credits_per_deploy: 15, build_share_percent: 80, auto_recharge: false,
  cycle_start: '2026-11-01T00:00:00.000Z', cycle_end: '2026-12-01T00:00:00.000Z', sites: 2, builds_in_cycle: 16,
  team_builds_used: 10, site_builds_used: 6, builds_left: 6, credits_used: 150, allowed_now: 8, may_build: false, share_spent: false,
  next_build_at: '2026-11-17T00:00:00.000Z', ...over,
});

const site = (name: string, deploys: number, scheduled = 0, slots = scheduled) => ({
  organization_id: name, name, slug: name.toLowerCase(), deploys, credits: deploys * 15, scheduled_in_cycle: scheduled, scheduled_slots_in_cycle: slots,
});

/** A team of two sites; `slots`: the distinct times their scheduled posts go out (each post its own by default). */
const usage = ({ used = 10, recent = 14, scheduled = [0, 0], slots = scheduled }: { used?: number; recent?: number; scheduled?: [number, number]; slots?: [number, number] } = {}): TeamUsage => ({
  budget: budget({ team_builds_used: used, builds_left: Math.max(0, 16 - used), credits_used: used * 15, share_spent: used >= 16 }),
  sites: [site('Evergreen', used - 6, scheduled[0], slots[0]), site('Scale Pro', 6, scheduled[1], slots[1])],
  builds_last_14_days: recent,
});

describe('cycleUsage', () => {
  it("lists each site's deploys and credits this cycle and adds them up for the team", () => {
    const figures = cycleUsage(usage());
    expect(figures.sites.map(({ name, deploys, credits }) => [name, deploys, credits])).toEqual([['Evergreen', 4, 60], ['Scale Pro', 6, 90]]);
    expect({ deploys: figures.deploys, credits: figures.credits }).toEqual({ deploys: 10, credits: 150 });
  });
});

describe('budgetForecast', () => {
  it.each([
    {
      case: 'the recent pace runs the share out first (a build a day, 6 left)',
      team: usage({ recent: 14, scheduled: [1, 2] }),
      expected: { atRecentPace: 25, scheduled: 3, atQueuePace: 13, runsOutAt: '2026-11-22T00:00:00.000Z', spent: false },
    },
    {
      case: "the queues' pace runs it out first (12 posts in 15 days: 0.8 a day)",
      team: usage({ recent: 0, scheduled: [5, 7] }),
      expected: { atRecentPace: 10, scheduled: 12, atQueuePace: 22, runsOutAt: '2026-11-23T12:00:00.000Z', spent: false },
    },
    {
      case: 'posts of one queue slot go out in one build (12 posts in 6 slots: 0.4 builds a day)',
      team: usage({ recent: 0, scheduled: [5, 7], slots: [2, 4] }),
      expected: { atRecentPace: 10, scheduled: 12, scheduledBuilds: 6, atQueuePace: 16, runsOutAt: null, spent: false },
    },
    {
      case: 'the share lasts the cycle at both paces',
      team: usage({ recent: 2, scheduled: [0, 1] }),
      expected: { atRecentPace: 12, scheduled: 1, atQueuePace: 11, runsOutAt: null, spent: false },
    },
    {
      case: 'nothing built or scheduled',
      team: usage({ recent: 0 }),
      expected: { atRecentPace: 10, scheduled: 0, atQueuePace: 10, runsOutAt: null, spent: false },
    },
    {
      case: 'the share is spent',
      team: usage({ used: 16, recent: 20, scheduled: [2, 0] }),
      expected: { atRecentPace: 37, scheduled: 2, atQueuePace: 18, runsOutAt: null, spent: true },
    },
  ])('$case', ({ team, expected }) => {
    const forecast = budgetForecast(team, NOW);
    expect({ ...forecast, runsOutAt: forecast.runsOutAt?.toISOString() ?? null }).toMatchObject(expected);
  });

  it.each([
    {
      team: usage({ recent: 14, scheduled: [1, 2] }),
      recentPace: "At the last 14 days' pace (14 builds): about 25 builds by Dec 1, of 16 this month.",
      queuePace: "At the queues' pace (3 scheduled posts still to go out): 13 builds by Dec 1, of 16 this month.",
      runOut: "Without pacing, this month's 16 builds would run out on Nov 22; pacing spreads them until Dec 1.",
    },
    {
      team: usage({ recent: 0, scheduled: [5, 7], slots: [2, 4] }),
      recentPace: "At the last 14 days' pace (0 builds): about 10 builds by Dec 1, of 16 this month.",
      queuePace: "At the queues' pace (12 scheduled posts in 6 builds still to go out): 16 builds by Dec 1, of 16 this month.",
      runOut: "At these paces, this month's 16 builds last until Dec 1.",
    },
    {
      team: usage({ recent: 1, scheduled: [0, 1] }),
      recentPace: "At the last 14 days' pace (1 build): about 11 builds by Dec 1, of 16 this month.",
      queuePace: "At the queues' pace (1 scheduled post still to go out): 11 builds by Dec 1, of 16 this month.",
      runOut: "At these paces, this month's 16 builds last until Dec 1.",
    },
    {
      team: usage({ used: 16, recent: 20 }),
      recentPace: "At the last 14 days' pace (20 builds): about 37 builds by Dec 1, of 16 this month.",
      queuePace: "At the queues' pace (no scheduled posts still to go out): 16 builds by Dec 1, of 16 this month.",
      runOut: "This month's 16 builds are used: automatic builds resume on Dec 1.",
    },
  ])('words it: $runOut', ({ team, ...sentences }) => {
    expect(forecastSentences(budgetForecast(team, NOW))).toEqual(sentences);
  });
});

describe('what more credits buy', () => {
  it.each([
    { case: 'Free, in a 30-day cycle', over: {}, extra: 500, sentence: '500 more credits a month: 26 more builds, about 0.9 a day.' },
    { case: 'Pro', over: { monthly_credits: 5_000 }, extra: 500, sentence: '500 more credits a month: 27 more builds, about 0.9 a day.' },
    { case: "Personal's step from Free", over: {}, extra: 700, sentence: '700 more credits a month: 37 more builds, about 1.2 a day.' },
    {
      case: 'a 28-day cycle', over: { cycle_start: '2027-02-01T00:00:00.000Z', cycle_end: '2027-03-01T00:00:00.000Z' }, extra: 500,
      sentence: '500 more credits a month: 26 more builds, about 0.9 a day.',
    },
    { case: 'fewer than one build in ten days', over: { credits_per_deploy: 300, build_share_percent: 100 }, extra: 500, sentence: '500 more credits a month: 1 more build, about one every 30 days.' },
    { case: 'a deploy dearer than the credits', over: { credits_per_deploy: 1_000 }, extra: 500, sentence: '500 more credits a month: no more builds at 1,000 credits a deploy.' },
  ])('$case', ({ over, extra, sentence }) => {
    expect(moreCreditsSentence(budget(over), extra)).toBe(sentence);
  });

  it.each([
    { credits: 300, plan: 'personal' },
    { credits: 1_000, plan: 'pro' },
    { credits: 2_000, plan: 'pro' },
    { credits: 5_000, plan: null },
  ])('the next plan above $credits credits is $plan', ({ credits, plan }) => {
    expect(nextPlan(budget({ monthly_credits: credits }))?.id ?? null).toBe(plan);
  });
});

describe('manualBuildCost', () => {
  it.each([
    { case: 'builds left', over: { builds_in_cycle: 213, builds_left: 41 }, text: 'Build now costs 15 credits. 41 of 213 builds are left this month.' },
    { case: 'the last build left', over: { builds_left: 1 }, text: 'Build now costs 15 credits. 1 of 16 builds is left this month.' },
    {
      case: 'past the share: the team\'s sites may be paused', over: { builds_left: 0, share_spent: true, sites: 3 },
      text: "Build now costs 15 credits. This month's 16 builds are used, so it takes credits kept for the sites' traffic; if the team's credits run out, Netlify pauses all 3 sites of the team until Dec 1.",
    },
    {
      case: 'past the share of a team of one', over: { builds_left: 0, share_spent: true, sites: 1 },
      text: "Build now costs 15 credits. This month's 16 builds are used, so it takes credits kept for the sites' traffic; if the team's credits run out, Netlify pauses the site until Dec 1.",
    },
    {
      case: 'past the share where Netlify buys more credits', over: { builds_left: 0, share_spent: true, auto_recharge: true },
      text: "Build now costs 15 credits. This month's 16 builds are used, so it takes credits kept for the sites' traffic; if the team's credits run out, Netlify buys more (at a cost).",
    },
    { case: 'a deploy of one credit', over: { credits_per_deploy: 1, builds_left: 2 }, text: 'Build now costs 1 credit. 2 of 16 builds are left this month.' },
    {
      case: 'a month of one build, used', over: { builds_in_cycle: 1, builds_left: 0, share_spent: true, sites: 1 },
      text: "Build now costs 15 credits. This month's 1 build is used, so it takes credits kept for the sites' traffic; if the team's credits run out, Netlify pauses the site until Dec 1.",
    },
  ])('$case', ({ over, text }) => {
    expect(manualBuildCost(budget(over))).toBe(text);
  });
});

describe('summaries', () => {
  it('says the plan, the cycle and the site in words', () => {
    expect(planSummary(budget())).toBe('16 builds a month: 80% of 300 credits, at 15 credits a deploy.');
    expect(cycleSummary(budget())).toBe('Nov 1 to Dec 1: 10 of 16 builds used (150 credits), 6 left.');
    expect(siteSummary(budget())).toBe('This site: 6 deploys this cycle (90 credits). Its team, Agency: 6 of 16 builds left until Dec 1.');
    expect(siteSummary(budget({ site_builds_used: 1, builds_left: 1 }))).toBe('This site: 1 deploy this cycle (15 credits). Its team, Agency: 1 of 16 builds left until Dec 1.');
  });
});

describe('the team form', () => {
  const team = { name: 'Agency', monthly_credits: 300, credits_per_deploy: 15, cycle_start_day: 1, build_share_percent: 80, auto_recharge: false };

  it('prefills from the team, knows its plan, and a plan fills its figures', () => {
    const values = hostingTeamFormValues(team);
    expect(values).toEqual({ name: 'Agency', monthly_credits: '300', credits_per_deploy: '15', cycle_start_day: '1', build_share_percent: '80', auto_recharge: false });
    expect(planOfForm(values)).toBe('free');
    expect(planOfForm(withPlan(values, 'pro'))).toBe('pro');
    expect(withPlan({ ...values, credits_per_deploy: '20' }, 'personal')).toMatchObject({ monthly_credits: '1000', credits_per_deploy: '15' });
    expect(planOfForm({ ...values, monthly_credits: '2500' })).toBe('custom');
    expect(planOfForm({ ...values, credits_per_deploy: '20' })).toBe('custom');
  });

  it.each([
    { case: 'valid', change: { name: ' Agency team ', monthly_credits: '5000' }, result: { ok: true, input: { ...team, name: 'Agency team', monthly_credits: 5_000 } } },
    { case: 'no name', change: { name: '  ' }, result: { ok: false, errors: { name: 'Name is required' } } },
    { case: 'no credits', change: { monthly_credits: '' }, result: { ok: false, errors: { monthly_credits: 'At least 1 credit' } } },
    { case: 'a fraction of a credit', change: { credits_per_deploy: '1.5' }, result: { ok: false, errors: { credits_per_deploy: 'A whole number of credits' } } },
    {
      case: 'a day and a share out of range', change: { cycle_start_day: '32', build_share_percent: '101' },
      result: { ok: false, errors: { cycle_start_day: 'A day from 1 to 31', build_share_percent: 'From 1 to 100 percent' } },
    },
  ])('$case', ({ change, result }) => {
    expect(parseHostingTeamForm({ ...hostingTeamFormValues(team), ...change })).toEqual(result);
  });
});
