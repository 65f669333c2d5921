/**
 * Application passwords end to end, on the served site: an editor makes one under Profile, sees it once, a
 * publishing tool uses it (HTTP Basic auth against /wp-json/, and the /?rest_route= and /index.php?rest_route= forms netlify.toml rewrites;
 * the pages also name /xmlrpc.php's RSD document, served by its function)
 * and saves a draft the editor finds in the post list as theirs, the list then shows the password's last use,
 * and once revoked the tool is refused. The site's pages announce the API. A tool that connects through
 * WordPress's login-approval page gets a working password when the member approves, nothing when they refuse,
 * and a request that would send the password to an unsafe address is refused before anything is made.
 */
import { expect, test } from './fixtures';
import { signInAt } from './support/sign-in';
import { createUser, PASSWORD, removeUser, service } from './support/backend';

let email = '';
test.afterAll(async () => {
  if (email) await removeUser(email);
});

test('an editor makes an application password, a tool publishes with it, and once revoked the tool is refused', async ({ page, request }) => {
  // A walk over four pages, each checked with axe when the test ends: under CI's load it took over a minute.
  test.slow();
  const editor = await createUser('editor');
  email = editor.email;
  await signInAt(page, '/admin/profile', editor.email);

  const card = page.getByRole('region', { name: 'Application Passwords' });
  await expect(card.getByText('No application passwords yet')).toBeVisible();
  const login = editor.email.split('@')[0]!;
  await expect(card.getByTestId('user-login')).toHaveText(login);
  await card.getByRole('button', { name: 'Add Application Password' }).click();
  await expect(card.getByText('Give the application password a name, such as the tool that will use it.')).toBeVisible();
  await card.getByLabel('New application password name').fill('ZimmWriter');
  await card.getByRole('button', { name: 'Add Application Password' }).click();
  const shown = card.getByTestId('new-application-password');
  await expect(shown).toHaveText(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
  const password = (await shown.textContent())!;
  await expect(card.getByRole('row', { name: /ZimmWriter/ })).toContainText('Never');

  // The tool: Basic auth with the e-mail (or the user name) and the password, in both of WordPress's address forms.
  const auth = { authorization: `Basic ${Buffer.from(`${editor.email}:${password}`).toString('base64')}` };
  const me = await request.get('/wp-json/wp/v2/users/me?context=edit', { headers: auth });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: editor.email, username: login, roles: ['editor'] });
  const byName = await request.get('/wp-json/wp/v2/users/me', { headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` } });
  expect(byName.status()).toBe(200);
  for (const path of ['/?rest_route=/wp/v2/users/me', '/index.php?rest_route=/wp/v2/users/me']) {
    const plain = await request.get(path, { headers: { authorization: `Basic ${Buffer.from(`${editor.email}:${password.replaceAll(' ', '')}`).toString('base64')}` } });
    expect(plain.status(), path).toBe(200);
    expect((await plain.json()).name, path).toBe('E2E editor');
  }
  const home = await request.get('/');
  expect(home.headers().link).toContain('/wp-json/>; rel="https://api.w.org/"');
  // The writing apps that speak XML-RPC find it the same way: the page's EditURI link, then the RSD document.
  expect(await home.text()).toContain('<link rel="EditURI" type="application/rsd+xml" title="RSD" href="http://localhost:8888/xmlrpc.php?rsd">');
  const rsd = await request.get('/xmlrpc.php?rsd');
  expect(await rsd.text()).toContain('<api name="WordPress" blogID="1" preferred="true" apiLink="http://localhost:8888/xmlrpc.php" />');

  // The tool saves a draft; the editor finds it in the back office's post list, as theirs. The tool then deletes it.
  const title = `Draft from a tool ${crypto.randomUUID().slice(0, 8)}`;
  const draft = await request.post('/wp-json/wp/v2/posts', { headers: auth, data: { title, content: '<p>Written elsewhere.</p>', status: 'draft' } });
  expect(draft.status()).toBe(201);
  const { id } = await draft.json();
  await page.goto('/admin/blog');
  await expect(page.getByTestId('post-card').filter({ hasText: title })).toContainText('By E2E editor');
  const deleted = await request.delete(`/wp-json/wp/v2/posts/${id}?force=true`, { headers: auth });
  expect((await deleted.json()).deleted).toBe(true);
  await page.goto('/admin/profile');

  // Reopened, the password is not shown again; the list says when and from where it was used.
  await expect(card.getByTestId('new-application-password')).toHaveCount(0);
  const row = card.getByRole('row', { name: /ZimmWriter/ });
  await expect(row).not.toContainText('Never');
  await expect(row).toContainText(/127\.0\.0\.1|::1/);

  await row.getByRole('button', { name: 'Revoke ZimmWriter' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke application password?' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Tools using "ZimmWriter" can no longer publish.');
  await expect(card.getByText('No application passwords yet')).toBeVisible();
  const refused = await request.get('/wp-json/wp/v2/users/me', { headers: auth });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe('incorrect_password');
  const refusedPost = await request.post('/wp-json/wp/v2/posts', { headers: auth, data: { title, content: '<p>Again.</p>' } });
  expect(refusedPost.status()).toBe(401);

  // The card links to the guide for connecting a tool.
  await expect(card.getByRole('link', { name: 'How to connect a tool, and what it can do here' })).toHaveAttribute('href', '/docs/wordpress-publishing-tools');
  await page.goto('/docs/wordpress-publishing-tools');
  await expect(page.getByRole('heading', { level: 1, name: 'Connecting a WordPress publishing tool' })).toBeVisible();
  await expect(page.getByRole('cell', { name: /your user name .* or your e-mail address/ })).toBeVisible();
  // The guides' tables fit a phone: nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  for (const guide of ['/docs/wordpress-publishing-tools', '/docs/zimmwriter-webhook-setup']) {
    if (guide !== '/docs/wordpress-publishing-tools') await page.goto(guide);
    const overflow = () => page.evaluate(() => Math.max(...[...document.querySelectorAll('article table')].map((table) => table.getBoundingClientRect().right)) - window.innerWidth);
    await expect.poll(overflow, { message: guide }).toBeLessThanOrEqual(0);
  }
});

test('a tool connects through the login-approval page: signed out, the member signs in, approves, and the tool publishes with what it was given', async ({ page, request }) => {
  const editor = await createUser('editor');
  try {
    const index = await (await request.get('/wp-json/')).json();
    const approvalPage = new URL(index.authentication['application-passwords'].endpoints.authorization);
    expect(approvalPage.pathname).toBe('/wp-admin/authorize-application.php');
    // Where the tool waits: the browser is sent there with the password, which this test reads off the address.
    await page.route('https://ulysses.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Connected</p>' }));
    // WordPress's address leads to the back office's page, the tool's request with it.
    const ask = (query: Record<string, string>) => `/admin/authorize-application?${new URLSearchParams(query)}`;
    // Signed out, the member signs in first and comes back with the request.
    await page.goto(`${approvalPage.pathname}?${new URLSearchParams({ app_name: 'Ulysses', success_url: 'http://ulysses.test/connected' })}`);
    await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fauthorize-application%3Fapp_name%3DUlysses%26success_url%3D/);
    await page.getByRole('main').getByLabel('Email').fill(editor.email);
    await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(`${new URL(index.url).origin}${ask({ app_name: 'Ulysses', success_url: 'http://ulysses.test/connected' })}`);

    // An unsafe return address is refused before anything is made; the page says which and why.
    await expect(page.getByRole('alert')).toContainText('The success URL (success_url) must be served over a secure connection (https).');
    for (const query of [{ success_url: 'javascript:alert(1)//x' }, { app_id: 'not-a-uuid' }] as Record<string, string>[]) {
      await page.goto(ask({ app_name: 'Ulysses', ...query }));
      await expect(page.getByRole('heading', { name: 'This connection request cannot be approved' })).toBeVisible();
    }

    // Refused: back to the tool with success=false, nothing made.
    await page.goto(ask({ app_name: 'Ulysses', success_url: 'https://ulysses.test/connected?state=1', reject_url: 'https://ulysses.test/refused' }));
    await page.getByRole('button', { name: 'No, I do not approve of this connection' }).click();
    await expect(page).toHaveURL('https://ulysses.test/refused?success=false');
    expect((await service.from('application_passwords').select('id').eq('user_id', editor.id)).data).toEqual([]);

    // Approved: back to the tool with the site, the user name and a password that publishes.
    await page.goto(ask({ app_name: 'Ulysses', app_id: '6f2c5b0e-1c1d-4a0e-9a57-0d7d1b9c2f11', success_url: 'https://ulysses.test/connected?state=1' }));
    await expect(page.getByText('Ulysses would like to connect to your account on Scale Pro Marketing')).toBeVisible();
    await expect(page.getByLabel('New Application Password Name')).toHaveValue('Ulysses');
    await page.getByRole('button', { name: 'Yes, I approve of this connection' }).click();
    await page.waitForURL(/^https:\/\/ulysses\.test\/connected/);
    const granted = new URL(page.url()).searchParams;
    expect(granted.get('state')).toBe('1');
    expect(granted.get('site_url')).toBe(new URL(index.url).origin);
    expect(granted.get('user_login')).toBe(editor.email.split('@')[0]);
    const auth = { authorization: `Basic ${Buffer.from(`${granted.get('user_login')}:${granted.get('password')}`).toString('base64')}` };
    expect((await (await request.get('/wp-json/wp/v2/users/me', { headers: auth })).json()).name).toBe('E2E editor');
    expect((await service.from('application_passwords').select('name').eq('user_id', editor.id)).data).toEqual([{ name: 'Ulysses' }]);
  } finally {
    await removeUser(editor.email);
  }
});
