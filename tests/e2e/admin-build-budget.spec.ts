/**
 * The build budget in the back office, on an organization of its own whose hosting team is tight (Free's 300
 * credits: 16 builds a cycle) and ahead of its pace (15 builds three days into its cycle): the header says the
 * changes wait and until when; its admin's Build now says what it costs, then builds past the pace; Settings shows
 * the cycle's deploys and credits per site and in all, the forecast and what more credits buy, refuses an invalid
 * figure on its field, and saves the plan changed to Pro. An editor of the site sees why changes wait, no Build now.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, organizationOfItsOwn, removeUser, service } from './support/backend';
import { signInAsAdmin, submitSignIn } from './support/sign-in';

const DAY_MS = 86_400_000;
const status = (page: Page) => page.getByTestId('deploy-status');
const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });

/** The organization's team as the database holds it. */
async function teamOf(organizationId: string) {
  const { data: site } = await service.from('hosting_team_sites').select('team_id').eq('organization_id', organizationId).single();
  const { data: team } = await service.from('hosting_teams').select('*').eq('id', site!.team_id).single();
  return team!;
}

test('a team ahead of its pace: changes wait, Build now says its cost, and Settings shows the month and saves the plan', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const own = await organizationOfItsOwn('E2E Build Budget');
  const { organization, admin } = own;
  const editor = await createUser('editor');
  const hookCalls: string[] = [];
  const hook = createServer((req, res) => {
    hookCalls.push(new URL(req.url ?? '/', 'http://hook').pathname);
    req.resume();
    res.end();
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  try {
    // Free's figures, in a cycle that started three days ago (UTC): what was built since counts, and the pace has
    // allowed about two of its 16 builds by now.
    const cycleStartDay = new Date(Date.now() - 3 * DAY_MS).getUTCDate();
    const placed = await service.rpc('place_site_in_team', {
      p_organization_id: organization.id, p_team_name: organization.slug, p_monthly_credits: 300, p_credits_per_deploy: 15,
      p_cycle_start_day: cycleStartDay, p_build_share_percent: 80, p_auto_recharge: false,
    });
    expect(placed.error).toBeNull();
    // 15 builds of the last hours, as Netlify's deploy notifications record them.
    const deploys = Array.from({ length: 15 }, (_, n) => {
      const started = Date.now() - (n + 1) * 10 * 60_000;
      return {
        organization_id: organization.id, source: 'netlify', external_id: `e2e-budget-${n}-${crypto.randomUUID()}`, state: 'succeeded',
        started_at: new Date(started).toISOString(), finished_at: new Date(started + 60_000).toISOString(), url: 'https://budget.example.com',
      };
    });
    expect((await service.from('site_deploys').insert(deploys)).error).toBeNull();
    // A post scheduled for tomorrow (the queues' pace), a change that waits, and a build hook that answers.
    const scheduled = await service.from('blog_posts').insert({
      organization_id: organization.id, author_id: admin.id, title: 'E2E budget scheduled', slug: `e2e-budget-${Date.now()}`,
      content: '<p>Tomorrow.</p>', content_source: 'Tomorrow.', content_format: 'markdown', status: 'scheduled',
      published_at: new Date(Date.now() + DAY_MS).toISOString(),
    });
    expect(scheduled.error).toBeNull();
    expect((await service.from('site_rebuild_requests').insert({ organization_id: organization.id, reason: 'E2E change' })).error).toBeNull();
    const { port } = hook.address() as AddressInfo;
    expect((await service.from('site_rebuild_settings').insert({ organization_id: organization.id, build_hook_url: `http://127.0.0.1:${port}/build_hooks/e2e` })).error).toBeNull();

    // The header: the change waits for the budget, and says until when.
    await signInAsAdmin(page, admin.email);
    await page.getByLabel('Managing').selectOption(organization.id);
    await expect(status(page)).toHaveAttribute('data-state', 'waiting');
    await expect(status(page)).toContainText('Changes waiting');
    await expect(status(page)).toContainText(/1 change waiting\. Next build at .+: 1 of 16 builds left this month\./);

    // Settings: the month so far, per site and in all, the forecast and what more credits buy.
    await page.goto('/admin?tab=settings');
    await expect(page.getByLabel('Managing')).toHaveValue(organization.id);
    const card = page.getByRole('region', { name: 'Hosting & builds' });
    await expect(card.getByTestId('hosting-cycle-summary')).toContainText(/: 15 of 16 builds used \(225 credits\), 1 left\.$/);
    await expect(card.getByTestId('hosting-site-row')).toHaveCount(1);
    await expect(card.getByTestId('hosting-site-row')).toHaveText(`${organization.name} (this site)15225`);
    await expect(card.getByTestId('hosting-total-row')).toHaveText('All sites15225');
    const forecast = card.getByTestId('hosting-forecast');
    await expect(forecast).toContainText(/At the last 14 days' pace \(15 builds\): about \d+ builds by [A-Z][a-z]{2} \d{1,2}, of 16 this month\./);
    await expect(forecast).toContainText(/At the queues' pace \(1 scheduled post still to go out\): 16 builds by [A-Z][a-z]{2} \d{1,2}, of 16 this month\./);
    // A build a day for the last 14 days' 15: the one build left would go within a day without pacing.
    await expect(card.getByTestId('hosting-run-out')).toHaveText(/^Without pacing, this month's 16 builds would run out on [A-Z][a-z]{2} \d{1,2}; pacing spreads them until [A-Z][a-z]{2} \d{1,2}\.$/);
    await expect(card.getByTestId('hosting-more-credits')).toContainText(/500 more credits a month: 26 more builds, about 0\.\d a day\./);
    await expect(card.getByTestId('hosting-more-credits')).toContainText(/The Personal plan's 700 more credits a month: 37 more builds, about 1\.\d a day\./);
    await expect(card.getByText('16 builds a month: 80% of 300 credits, at 15 credits a deploy.')).toBeVisible();

    // Build now: the dialog says what it costs; confirmed, the site builds past the pace.
    await status(page).getByRole('button', { name: 'Build now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Build the site now?' });
    await expect(dialog).toContainText('Build now costs 15 credits. 1 of 16 builds is left this month.');
    await dialog.getByRole('button', { name: 'Build now' }).click();
    await expect(toast(page)).toContainText('Rebuild started');
    await expect(status(page)).toHaveAttribute('data-state', 'requested');
    expect(hookCalls).toEqual(['/build_hooks/e2e']);
    // That build is the cycle's 16th: the share is spent.
    await card.getByRole('button', { name: 'Refresh' }).click();
    await expect(card.getByTestId('hosting-total-row')).toHaveText('All sites16240');
    await expect(card.getByTestId('hosting-run-out')).toHaveText(/^This month's 16 builds are used: automatic builds resume on [A-Z][a-z]{2} \d{1,2}\.$/);

    // The form: an invalid figure is refused on its field; Pro is saved.
    const form = card.getByRole('form', { name: 'Plan' });
    await form.getByLabel('Cycle start day').fill('32');
    await form.getByRole('button', { name: 'Save Hosting' }).click();
    await expect(form.getByLabel('Cycle start day')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('A day from 1 to 31')).toBeVisible();
    expect((await teamOf(organization.id)).cycle_start_day).toBe(cycleStartDay);
    await form.getByLabel('Cycle start day').fill(String(cycleStartDay));
    await form.getByLabel('Netlify plan').selectOption('pro');
    await expect(form.getByLabel('Monthly credits')).toHaveValue('5000');
    await form.getByRole('button', { name: 'Save Hosting' }).click();
    await expect(toast(page)).toContainText('Hosting Saved');
    await expect(card.getByText('266 builds a month: 80% of 5,000 credits, at 15 credits a deploy.')).toBeVisible();
    expect(await teamOf(organization.id)).toMatchObject({ monthly_credits: 5_000, credits_per_deploy: 15, cycle_start_day: cycleStartDay, build_share_percent: 80 });

    // An editor of the site, back on Free's figures after the build Build now sent (Netlify reported it) and one
    // more change: why changes wait, and no Build now.
    expect((await service.from('hosting_teams').update({ monthly_credits: 300 }).eq('id', (await teamOf(organization.id)).id)).error).toBeNull();
    const built = { organization_id: organization.id, source: 'netlify', external_id: `e2e-budget-now-${crypto.randomUUID()}`, state: 'succeeded' };
    expect((await service.from('site_deploys').insert({ ...built, started_at: new Date().toISOString(), finished_at: new Date().toISOString() })).error).toBeNull();
    expect((await service.from('site_rebuild_requests').insert({ organization_id: organization.id, reason: 'E2E change for the editor' })).error).toBeNull();
    expect((await service.from('organization_memberships').insert({ user_id: editor.id, organization_id: organization.id, role: 'editor' })).error).toBeNull();
    const editorContext = await browser.newContext({ baseURL });
    try {
      const editorPage = await editorContext.newPage();
      await submitSignIn(editorPage, editor.email);
      await expect(editorPage).toHaveURL(/\/admin\/blog$/);
      await editorPage.getByLabel('Managing').selectOption(organization.id);
      await expect(status(editorPage)).toHaveAttribute('data-state', 'waiting');
      await expect(status(editorPage)).toContainText(/This month's 16 builds are used: automatic builds resume on/);
      await expect(status(editorPage).getByRole('button')).toHaveCount(0);
    } finally {
      await editorContext.close();
    }
  } finally {
    await new Promise<void>((resolve) => hook.close(() => resolve()));
    await removeUser(editor.email);
    // Its deploys, requests, posts, team, settings and memberships go with it.
    await own.remove();
  }
});
