/**
 * Application passwords end to end, on the served site: an editor makes one under Profile, sees it once, a
 * publishing tool uses it (HTTP Basic auth against /wp-json/, and the /?rest_route= and /index.php?rest_route= forms netlify.toml rewrites)
 * and saves a draft the editor finds in the post list as theirs, the list then shows the password's last use,
 * and once revoked the tool is refused. The site's pages announce the API.
 */
import { expect, test } from './fixtures';
import { signInAt } from './support/sign-in';
import { createUser, removeUser } from './support/backend';

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
  await card.getByRole('button', { name: 'Add Application Password' }).click();
  await expect(card.getByText('Give the application password a name, such as the tool that will use it.')).toBeVisible();
  await card.getByLabel('New application password name').fill('ZimmWriter');
  await card.getByRole('button', { name: 'Add Application Password' }).click();
  const shown = card.getByTestId('new-application-password');
  await expect(shown).toHaveText(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
  const password = (await shown.textContent())!;
  await expect(card.getByRole('row', { name: /ZimmWriter/ })).toContainText('Never');

  // The tool: Basic auth with the e-mail and the password, in both of WordPress's address forms.
  const auth = { authorization: `Basic ${Buffer.from(`${editor.email}:${password}`).toString('base64')}` };
  const me = await request.get('/wp-json/wp/v2/users/me?context=edit', { headers: auth });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ email: editor.email, roles: ['editor'] });
  for (const path of ['/?rest_route=/wp/v2/users/me', '/index.php?rest_route=/wp/v2/users/me']) {
    const plain = await request.get(path, { headers: { authorization: `Basic ${Buffer.from(`${editor.email}:${password.replaceAll(' ', '')}`).toString('base64')}` } });
    expect(plain.status(), path).toBe(200);
    expect((await plain.json()).name, path).toBe('E2E editor');
  }
  const home = await request.get('/');
  expect(home.headers().link).toContain('/wp-json/>; rel="https://api.w.org/"');

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
  await expect(page.getByRole('cell', { name: 'your e-mail address, the one you sign in with' })).toBeVisible();
});
