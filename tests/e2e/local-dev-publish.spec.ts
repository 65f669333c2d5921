/**
 * A new user's `npm run dev`: the site started as `npm run dev` starts it (`node netlify/local/cli.ts dev
 * --offline`, on port 8893; in a copy of the project and on a backend of its own, support/dev-server-world.ts,
 * so that it runs beside the main suite's netlify serve),
 * a post published through the editor and one delivered through the writing-tool webhook, then nothing but
 * waiting: the editor's page and the webhook send their rebuild at once (the build queue), the local scheduler
 * (publish-scheduled every minute) sends whatever waited, and the local build (under dev: astro dev reads the
 * database afresh) puts both on the public blog. A post scheduled a few
 * seconds ahead (before the other two, so the same minutes of the scheduler serve all three) appears once its
 * time has passed, again without anything called by hand.
 *
 * The pages are astro dev's (Vite's client, no built security headers): this spec checks publishing, not the
 * built pages' accessibility or CSP, so it uses Playwright's own `test` rather than the suite's fixtures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { waitForIslands } from './fixtures';
import { createUser, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';

const PORT = Number(process.env.E2E_DEV_PORT ?? 8893);
const SITE = `http://localhost:${PORT}`;
/** The project copy playwright.dev.config.ts's global setup made (the project itself when run otherwise). */
const ROOT = process.env.E2E_DEV_PROJECT ?? join(import.meta.dirname, '../..');
const marker = `e2e-local-${crypto.randomUUID().slice(0, 8)}`;
const created: string[] = [];
const started = new Date().toISOString();
let server: ChildProcess | undefined;
let serverLog = '';
/** When the scheduled post of the first test goes out. */
let scheduledAt: Date;

test.use({ baseURL: SITE });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(300_000);
  // Its own process group, so stopping it stops netlify-cli, astro dev and the scheduler with it.
  server = spawn(process.execPath, ['netlify/local/cli.ts', 'dev', '--offline', '--port', String(PORT)], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
      LOCAL_SCHEDULER: 'on',
      SITE_ORG: '',
    },
  });
  const keep = (chunk: Buffer) => {
    serverLog = (serverLog + chunk.toString()).slice(-20_000);
  };
  server.stdout!.on('data', keep);
  server.stderr!.on('data', keep);
  await expect
    .poll(async () => (server?.exitCode === null ? (await request.get(`${SITE}/`, { timeout: 10_000 }).catch(() => null))?.status() : `exited with ${server?.exitCode}`), {
      timeout: 240_000,
      intervals: [1000],
      message: `npm run dev on port ${PORT} (in ${ROOT}) did not answer:\n${serverLog}`,
    })
    .toBe(200);
  expect(serverLog).toContain('[scheduler] running the scheduled functions on their schedules: publish-scheduled (* * * * *)');
  // astro dev compiles each page and Vite optimizes the islands' dependencies on first use (reloading the page
  // when it finds new ones): open the pages the test uses once, so the test itself sees them settled.
  const warm = await browser.newPage({ baseURL: SITE });
  for (const path of ['/auth', '/admin/blog', '/admin/blog/new', '/blog']) {
    await warm.goto(path, { timeout: 120_000 });
    await warm.waitForLoadState('networkidle', { timeout: 120_000 });
    await waitForIslands(warm);
  }
  await warm.close();
});

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  }
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.from('webhook_deliveries').delete().like('slug', `${marker}%`);
  // The suite runs one test at a time: the requests of this spec's time are its own.
  await service.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO_ID).gte('requested_at', started);
  await service.from('user_activity_logs').delete().eq('resource_type', 'blog_post').like('details->>slug', `${marker}%`);
  for (const email of created) await removeUser(email);
});

/** Polls the served public blog until it lists every title (the scheduler ticks once a minute). */
async function expectOnPublicBlog(request: APIRequestContext, titles: string[]) {
  await expect
    .poll(
      async () => {
        const html = await (await request.get(`${SITE}/blog`)).text();
        return titles.filter((title) => !html.includes(title));
      },
      { timeout: 240_000, intervals: [3000], message: `not on ${SITE}/blog in time; the server said:\n${serverLog.slice(-4000)}` },
    )
    .toEqual([]);
}

test('a post scheduled a few seconds ahead is not on the public blog before its time', async ({ request }) => {
  // Ahead of now, so it is stored as scheduled; the scheduler's first minute after it publishes it (checked last).
  scheduledAt = new Date(Date.now() + 5_000);
  const { error } = await service.from('blog_posts').insert({
    organization_id: SCALE_PRO_ID,
    slug: `${marker}-scheduled`,
    title: `${marker} scheduled`,
    content: '<p>Goes live on time.</p>',
    status: 'scheduled',
    published_at: scheduledAt.toISOString(),
  });
  expect(error).toBeNull();
  expect(await (await request.get(`${SITE}/blog`)).text()).not.toContain(`${marker} scheduled`);
});

test('a post published in the editor and one from the webhook reach the public blog by themselves', async ({ page, request }) => {
  test.setTimeout(420_000);
  const user = await createUser('editor');
  created.push(user.email);
  await page.goto('/admin/blog');
  await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fblog$/, { timeout: 60_000 });
  await waitForIslands(page);
  await page.getByRole('main').getByLabel('Email').fill(user.email);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/blog$/, { timeout: 60_000 });

  await page.getByRole('link', { name: 'New Post' }).click();
  await expect(page.getByRole('heading', { name: 'Create New Post' })).toBeVisible({ timeout: 60_000 });
  await waitForIslands(page);
  await page.getByLabel('Title *').fill(`${marker} editor`);
  await expect(page.getByLabel('URL Slug')).toHaveValue(`${marker}-editor`);
  await page.getByLabel('Content *').fill('Written in the editor, published locally.');
  await page.getByRole('button', { name: 'Publish' }).click();
  // The saved row, not the toast: under astro dev, Vite may reload the next page when it meets a dependency
  // the warm-up did not (the signed-in list), and a reload drops a toast (the main suite checks the toast).
  await expect
    .poll(async () => (await service.from('blog_posts').select('status').eq('slug', `${marker}-editor`).maybeSingle()).data?.status, { timeout: 30_000 })
    .toBe('published');
  // The editor stays on the saved post.
  await expect(page).toHaveURL(/\/admin\/blog\/edit\/[0-9a-f-]{36}$/);

  const delivered = await request.post(`${SITE}/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro`, {
    data: { webhook_name: 'blog_post_created', title: `${marker} webhook`, html: '<p>Delivered by the writing tool.</p>', slug: `${marker}-webhook` },
  });
  expect(delivered.status()).toBe(201);

  // Nothing else is called: the requests go out by themselves (at once, or with the scheduler's next minute).
  await expectOnPublicBlog(request, [`${marker} editor`, `${marker} webhook`]);
  const visitor = await page.context().newPage();
  await visitor.goto(`/blog/${marker}-editor`);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`${marker} editor`);
  await visitor.close();

  const { data: requests } = await service.from('site_rebuild_requests').select('reason').eq('organization_id', SCALE_PRO_ID).gte('requested_at', started);
  expect(requests?.length, 'the editor and the webhook each recorded a rebuild request').toBeGreaterThanOrEqual(2);
  // The scheduler sends them by itself. (astro dev may show the posts before that: when Vite re-optimizes a
  // dependency it reloads the modules, and the blog is read afresh.)
  await expect
    .poll(
      async () => {
        const { data } = await service.from('site_rebuild_requests').select('reason').eq('organization_id', SCALE_PRO_ID).is('batch_id', null).gte('requested_at', started);
        return data;
      },
      { timeout: 150_000, intervals: [3000] },
    )
    .toEqual([]);
});

test('a post scheduled a few seconds ahead appears once its time has passed', async ({ request }) => {
  test.setTimeout(420_000);
  // Scheduled before the test above: the scheduler's minute it waited for publishes this post too.
  await expectOnPublicBlog(request, [`${marker} scheduled`]);
  expect(Date.now()).toBeGreaterThanOrEqual(scheduledAt.getTime());
  const { data: post } = await service.from('blog_posts').select('status').eq('slug', `${marker}-scheduled`).single();
  expect(post?.status).toBe('published');
});
