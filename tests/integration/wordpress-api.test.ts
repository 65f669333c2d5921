/**
 * Application passwords and the WordPress REST API's sign-in, through the real function (netlify/functions/
 * wordpress-api.mts, called as Netlify calls it) and the real database, as a tool and as an attacker:
 * - the index and `wp/v2` answer anyone, in WordPress's shapes, with the discovery link; `/?rest_route=` names
 *   the same routes;
 * - `users/me` answers the member an application password belongs to (the seed's "Development" password, with
 *   or without its spaces), with integer ids, WordPress's role and capabilities;
 * - no credentials, a wrong password, a revoked one, one of another organization, a deactivated member: 401,
 *   WordPress's error body; wrong passwords count toward the sign-in lockout (then 429, even for the right one);
 * - members make passwords only through the API's function (editors and admins; a viewer, anon or a member of
 *   another organization cannot), see them once, never read a hash; members list and revoke their own, admins
 *   those of their organization, nobody another organization's; both are logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import wordpressApi from '../../netlify/functions/wordpress-api.mts';
import { anonClient, createMember, directTokenClient, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const DEV_PASSWORD = 'abcd EFGH 1234 ijkl MNOP 6789';
const PASSWORD_FORMAT = /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/;
const members: { id: string; remove: () => Promise<unknown> }[] = [];

/** A request to the API as Netlify hands it to the function, from `ip` (each test its own, for the lockout). */
function call(path: string, { auth, ip = '203.0.113.10', method = 'GET' }: { auth?: [string, string] | string; ip?: string; method?: string } = {}) {
  const headers: Record<string, string> = { 'user-agent': 'wordpress-api-test' };
  if (auth) headers.authorization = typeof auth === 'string' ? auth : `Basic ${Buffer.from(`${auth[0]}:${auth[1]}`).toString('base64')}`;
  return wordpressApi(new Request(`http://localhost:8888${path}`, { method, headers }), { ip });
}

async function member(role: 'admin' | 'editor' | 'viewer', organizationId: string = seed.scalePro) {
  const made = await createMember(role, organizationId);
  members.push(made);
  return made;
}

/** Makes an application password as the signed-in member, through the API the back office calls. */
async function makePassword(email: string, name: string, organizationId: string = seed.scalePro) {
  const client = await signedInClient(email);
  const { data, error } = await client.rpc('create_application_password', { p_organization_id: organizationId, p_name: name });
  return { client, data: data as { id: string; name: string; password: string } | null, error };
}

const passwordRows = async (userId: string) =>
  (await service.from('application_passwords').select('id, name, organization_id').eq('user_id', userId)).data ?? [];

afterAll(async () => {
  for (const made of members) await made.remove();
});

describe('the API index', () => {
  it('answers anyone with the wp/v2 namespace, its routes and the discovery link', async () => {
    const answer = await call('/wp-json/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(answer.headers.get('link')).toBe('<http://localhost:8888/wp-json/>; rel="https://api.w.org/"');
    const index = await answer.json();
    expect(index).toMatchObject({ name: 'Scale Pro Marketing', url: 'http://localhost:8888', namespaces: ['wp/v2'] });
    // The site's time zone (its publishing queue's), in which the API's `date` fields are wall times.
    expect(index.timezone_string).toBe('America/New_York');
    expect([-5, -4]).toContain(index.gmt_offset);
    expect(Object.keys(index.routes)).toEqual(expect.arrayContaining(['/', '/wp/v2', '/wp/v2/users/me']));
    expect(index.authentication['application-passwords'].endpoints.authorization).toBe('http://localhost:8888/wp-admin/authorize-application.php');
    expect((await (await call('/wp-json')).json()).namespaces).toEqual(['wp/v2']);
    expect((await (await call('/wp-json/wp/v2')).json()).namespace).toBe('wp/v2');
  });

  it('answers the rest_route form as the path form', async () => {
    const answer = await call('/wp-json/?rest_route=/wp/v2/users/me', { auth: [seed.users.editor.email, DEV_PASSWORD] });
    expect(answer.status).toBe(200);
    expect((await answer.json()).name).toBe('Jordan Lee');
  });

  it("answers an unknown route or method with WordPress's 404", async () => {
    for (const [path, method] of [['/wp-json/wp/v2/nothing-here', 'GET'], ['/wp-json/wp/v2/users/me', 'DELETE'], ['/wp-json/other/v1', 'GET']] as const) {
      const answer = await call(path, { method, auth: [seed.users.editor.email, DEV_PASSWORD] });
      expect(answer.status, path).toBe(404);
      expect(await answer.json()).toEqual({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    }    // Only a POST may name another method: a GET stays a GET.
    const tunnelled = await call('/wp-json/wp/v2/users/me?_method=DELETE', { auth: [seed.users.editor.email, DEV_PASSWORD] });
    expect(tunnelled.status).toBe(200);
  });
});

describe('users/me with an application password', () => {
  it("answers the seed's development password, with or without its spaces, as the editor", async () => {
    // Its use is noted at most once a minute: another file's use of the seed's password must not hide this one's.
    await service.from('application_passwords').update({ last_used_at: null, last_used_ip: null }).eq('user_id', seed.users.editor.id).eq('name', 'Development');
    for (const password of [DEV_PASSWORD, DEV_PASSWORD.replaceAll(' ', '')]) {
      const answer = await call('/wp-json/wp/v2/users/me?context=edit', { auth: [seed.users.editor.email, password] });
      expect(answer.status).toBe(200);
      const me = await answer.json();
      expect(Number.isInteger(me.id)).toBe(true);
      expect(me).toMatchObject({ name: 'Jordan Lee', email: seed.users.editor.email, roles: ['editor'] });
      expect(me.capabilities).toMatchObject({ publish_posts: true, upload_files: true, edit_posts: true });
      expect(me.capabilities.manage_options).toBeUndefined();
    }
    // Without context=edit: the public view, no e-mail.
    const open = await (await call('/wp-json/wp/v2/users/me', { auth: [seed.users.editor.email.toUpperCase(), DEV_PASSWORD] })).json();
    expect(open.email).toBeUndefined();
    const { data } = await service.from('application_passwords').select('last_used_at, last_used_ip').eq('user_id', seed.users.editor.id).eq('name', 'Development').single();
    expect(data?.last_used_ip).toBe('203.0.113.10');
    expect(Date.now() - new Date(data!.last_used_at as string).getTime()).toBeLessThan(120_000);
  });

  it('answers an admin as administrator and a member demoted to viewer as subscriber, who may not publish', async () => {
    const admin = await member('admin');
    const made = await makePassword(admin.email, 'Tool');
    expect(made.error).toBeNull();
    const me = await (await call('/wp-json/wp/v2/users/me?context=edit', { auth: [admin.email, made.data!.password], ip: '203.0.113.11' })).json();
    expect(me.roles).toEqual(['administrator']);
    expect(me.capabilities).toMatchObject({ publish_posts: true, manage_options: true });
    expect((await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', admin.id).eq('organization_id', seed.scalePro)).error).toBeNull();
    const viewer = await (await call('/wp-json/wp/v2/users/me?context=edit', { auth: [admin.email, made.data!.password], ip: '203.0.113.11' })).json();
    expect(viewer.roles).toEqual(['subscriber']);
    expect(viewer.capabilities.publish_posts).toBeUndefined();
  });

  it('signs in with the user name as with the e-mail, shows it as username, and counts both as one account toward the lockout', async () => {
    const editor = await member('editor');
    const made = await makePassword(editor.email, 'By name');
    const { data: profile } = await service.from('profiles').select('user_login').eq('id', editor.id).single();
    const login = profile!.user_login as string;
    expect(login).toBe(editor.email.split('@')[0]);
    for (const name of [login, login.toUpperCase(), ` ${login} `]) {
      const answer = await call('/wp-json/wp/v2/users/me?context=edit', { auth: [name, made.data!.password], ip: '203.0.113.40' });
      expect(answer.status, name).toBe(200);
      expect(await answer.json(), name).toMatchObject({ username: login, email: editor.email, roles: ['editor'] });
    }
    // Another organization's member's user name with their own password: refused on this site.
    const elsewhere = await member('editor', seed.evergreen);
    const foreign = await makePassword(elsewhere.email, 'Foreign', seed.evergreen);
    const { data: foreignProfile } = await service.from('profiles').select('user_login').eq('id', elsewhere.id).single();
    expect((await call('/wp-json/wp/v2/users/me', { auth: [foreignProfile!.user_login, foreign.data!.password], ip: '203.0.113.41' })).status).toBe(401);

    // Three wrong by e-mail and two by user name lock the account out from this address, whichever form is sent next.
    const ip = '203.0.113.42';
    for (const name of [editor.email, editor.email, editor.email, login, login]) {
      expect((await call('/wp-json/wp/v2/users/me', { auth: [name, 'wrong wrong wrong'], ip })).status).toBe(401);
    }
    for (const name of [login, editor.email]) expect((await call('/wp-json/wp/v2/users/me', { auth: [name, made.data!.password], ip })).status, name).toBe(429);
    const { count } = await service.from('login_attempts').select('id', { count: 'exact', head: true }).eq('email', editor.email).eq('ip_address', ip);
    expect(count).toBe(7);
  });

  it('gives every new account a user name of its own that nobody can change through the API', async () => {
    const first = await member('editor');
    const { data: made } = await service.auth.admin.createUser({ email: `${first.email.split('@')[0]}@elsewhere.test`, password: seed.password, email_confirm: true });
    members.push({ id: made.user!.id, remove: () => service.auth.admin.deleteUser(made.user!.id) });
    const logins = (await service.from('profiles').select('id, user_login').in('id', [first.id, made.user!.id])).data!;
    const byId = Object.fromEntries(logins.map((row) => [row.id, row.user_login]));
    expect(byId[made.user!.id]).toBe(`${byId[first.id]}-2`);

    // Neither the member nor an admin of the organization may rename it; a visitor cannot even read it.
    const admin = await member('admin');
    for (const email of [first.email, admin.email]) {
      const client = await signedInClient(email);
      const { error } = await client.from('profiles').update({ user_login: 'taken-over' }).eq('id', first.id);
      expect(error?.code, email).toBe('42501');
    }
    expect((await anonClient().from('profiles').select('user_login').eq('id', first.id)).error?.code).toBe('42501');
    expect((await service.from('profiles').select('user_login').eq('id', first.id).single()).data!.user_login).toBe(byId[first.id]);
  });

  it("refuses a request without credentials with WordPress's 401", async () => {
    const answer = await call('/wp-json/wp/v2/users/me');
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
  });

  it('refuses wrong, malformed, revoked, deactivated and other-organization credentials alike, each counted as a wrong sign-in', async () => {
    const editor = await member('editor');
    const own = await makePassword(editor.email, 'ZimmWriter');
    const elsewhere = await member('editor', seed.evergreen);
    const foreign = await makePassword(elsewhere.email, 'ZimmWriter', seed.evergreen);
    expect(foreign.error).toBeNull();
    const refusals: [string, Parameters<typeof call>[1]][] = [
      ['wrong password', { auth: [editor.email, 'abcd abcd abcd abcd abcd abcd'], ip: '203.0.113.20' }],
      ['the sign-in password', { auth: [editor.email, seed.password], ip: '203.0.113.21' }],
      ['another member\'s password', { auth: [editor.email, DEV_PASSWORD], ip: '203.0.113.22' }],
      ['unknown e-mail', { auth: ['nobody@scale-pro.test', own.data!.password], ip: '203.0.113.23' }],
      ['not Basic', { auth: 'Basic not-base64-at-all', ip: '203.0.113.24' }],
      ['another organization\'s password on this site', { auth: [elsewhere.email, foreign.data!.password], ip: '203.0.113.25' }],
    ];
    for (const [what, options] of refusals) {
      const answer = await call('/wp-json/wp/v2/users/me', options);
      expect(answer.status, what).toBe(401);
      expect(await answer.json(), what).toEqual({ code: 'incorrect_password', message: 'The user name, e-mail address or application password is not right for this site.', data: { status: 401 } });
    }
    const { data: attempts } = await service.from('login_attempts').select('email, success, failure_reason').eq('email', editor.email).eq('success', false);
    expect(attempts).toEqual(Array(3).fill({ email: editor.email, success: false, failure_reason: 'Invalid login credentials' }));

    // Deactivated in the organization: refused, then let in again once active.
    expect((await service.from('organization_memberships').update({ is_active: false }).eq('user_id', editor.id)).error).toBeNull();
    expect((await call('/wp-json/wp/v2/users/me', { auth: [editor.email, own.data!.password], ip: '203.0.113.26' })).status).toBe(401);
    expect((await service.from('organization_memberships').update({ is_active: true }).eq('user_id', editor.id)).error).toBeNull();
    expect((await call('/wp-json/wp/v2/users/me', { auth: [editor.email, own.data!.password], ip: '203.0.113.26' })).status).toBe(200);

    // Revoked by its member: refused from then on.
    expect((await own.client.rpc('revoke_application_password', { p_id: own.data!.id })).error).toBeNull();
    expect((await call('/wp-json/wp/v2/users/me', { auth: [editor.email, own.data!.password], ip: '203.0.113.26' })).status).toBe(401);
  });

  it('locks the e-mail and address out after five wrong passwords, the right one included, as sign-in does', async () => {
    const editor = await member('editor');
    const made = await makePassword(editor.email, 'Locked');
    const ip = '203.0.113.30';
    for (let i = 0; i < 5; i++) expect((await call('/wp-json/wp/v2/users/me', { auth: [editor.email, `wrong ${i}`], ip })).status).toBe(401);
    const locked = await call('/wp-json/wp/v2/users/me', { auth: [editor.email, made.data!.password], ip });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await locked.json()).code).toBe('too_many_retries');
    // Another address is not locked.
    expect((await call('/wp-json/wp/v2/users/me', { auth: [editor.email, made.data!.password], ip: '203.0.113.31' })).status).toBe(200);
  });
});

describe('making, listing and revoking application passwords', () => {
  let editor: Awaited<ReturnType<typeof member>>;
  let colleague: Awaited<ReturnType<typeof member>>;
  beforeAll(async () => {
    editor = await member('editor');
    colleague = await member('editor');
  });

  it('shows a new password once, in groups of four, stores only its hash, and logs it', async () => {
    const made = await makePassword(editor.email, '  ZimmWriter  ');
    expect(made.error).toBeNull();
    expect(made.data!.name).toBe('ZimmWriter');
    expect(made.data!.password).toMatch(PASSWORD_FORMAT);
    const { data: stored } = await service.from('application_passwords').select('password_hash').eq('id', made.data!.id).single();
    expect(stored!.password_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.password_hash).not.toContain(made.data!.password.replaceAll(' ', ''));
    // The member lists it without any secret; the hash is not theirs to read.
    const { data: listed, error } = await made.client.from('application_passwords').select('id, name, created_at, last_used_at, last_used_ip');
    expect(error).toBeNull();
    expect(listed).toEqual([expect.objectContaining({ id: made.data!.id, name: 'ZimmWriter', last_used_at: null })]);
    expect((await made.client.from('application_passwords').select('password_hash')).error?.message).toMatch(/permission denied/);
    const { data: logged } = await service.from('user_activity_logs').select('user_id, action, details').eq('resource_id', made.data!.id);
    expect(logged).toEqual([{ user_id: editor.id, action: 'application_password_created', details: { name: 'ZimmWriter' } }]);
  });

  it('refuses an empty, too long or repeated name, a viewer, a member of another organization and anon, writing nothing', async () => {
    const before = await passwordRows(editor.id);
    const client = await signedInClient(editor.email);
    for (const [name, message] of [
      ['   ', 'Give the application password a name.'],
      ['x'.repeat(61), 'The name is too long (at most 60 characters).'],
      ['zimmwriter', 'You already have an application password named "zimmwriter". Choose another name.'],
    ] as const) {
      const { error } = await client.rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: name });
      expect(error?.message, name).toBe(message);
    }
    expect(await passwordRows(editor.id)).toEqual(before);

    const viewer = await member('viewer');
    const refusedViewer = await makePassword(viewer.email, 'Viewer tool');
    expect(refusedViewer.error?.message).toMatch(/Only editors and admins of this organization/);
    const outsider = await makePassword(seed.users.otherAdmin.email, 'Outsider', seed.scalePro);
    expect(outsider.error?.message).toMatch(/Only editors and admins of this organization/);
    const { error: anonError } = await anonClient().rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Anon' });
    expect(anonError).not.toBeNull();
    // An editor's token taken straight from /auth/v1/token (around the sign-in function's lockout) is no session the server vouched for.
    const untrusted = await directTokenClient(editor.email);
    const { error: untrustedError } = await untrusted.rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Around the lockout' });
    expect(untrustedError).not.toBeNull();
    expect(await passwordRows(editor.id)).toEqual(before);
    expect(await passwordRows(viewer.id)).toEqual([]);
    expect(await passwordRows(seed.users.otherAdmin.id)).toEqual([]);
  });

  it('keeps the table and the check out of reach of the API: no insert, update or delete, no call to the check', async () => {
    const client = await signedInClient(editor.email);
    const hash = 'a'.repeat(64);
    expect((await client.from('application_passwords').insert({ user_id: editor.id, organization_id: seed.scalePro, name: 'Forged', password_hash: hash })).error).not.toBeNull();
    const mine = (await passwordRows(editor.id))[0]!;
    await client.from('application_passwords').update({ name: 'Renamed' }).eq('id', mine.id);
    await client.from('application_passwords').delete().eq('id', mine.id);
    expect((await passwordRows(editor.id)).find((row) => row.id === mine.id)?.name).toBe(mine.name);
    for (const caller of [anonClient(), client]) {
      const { error } = await caller.rpc('authenticate_application_password', {
        p_organization_id: seed.scalePro, p_email: seed.users.editor.email, p_password: DEV_PASSWORD, p_ip: null, p_user_agent: null,
      });
      expect(error).not.toBeNull();
    }
  });

  it("lets a member revoke only their own, an admin their organization's, and nobody another organization's", async () => {
    const made = await makePassword(colleague.email, 'To revoke');
    const editorClient = await signedInClient(editor.email);
    // A colleague (editor) cannot see or revoke it; an admin of another organization neither.
    expect((await editorClient.from('application_passwords').select('id').eq('id', made.data!.id)).data).toEqual([]);
    expect((await editorClient.rpc('revoke_application_password', { p_id: made.data!.id })).error?.message).toBe('No such application password, or not yours to revoke.');
    const otherAdmin = await signedInClient(seed.users.otherAdmin.email);
    expect((await otherAdmin.from('application_passwords').select('id').eq('id', made.data!.id)).data).toEqual([]);
    expect((await otherAdmin.rpc('revoke_application_password', { p_id: made.data!.id })).error).not.toBeNull();
    expect((await passwordRows(colleague.id)).map((row) => row.id)).toContain(made.data!.id);

    // The organization's admin lists everyone's there (the seed's Development one too) and revokes it.
    const admin = await signedInClient(seed.users.admin.email);
    const { data: listed } = await admin.from('application_passwords').select('id, user_id, name');
    expect(listed).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: made.data!.id, user_id: colleague.id }),
      expect.objectContaining({ user_id: seed.users.editor.id, name: 'Development' }),
    ]));
    expect((await admin.rpc('revoke_application_password', { p_id: made.data!.id })).error).toBeNull();
    expect(await passwordRows(colleague.id)).toEqual([]);
    const { data: logged } = await service.from('user_activity_logs').select('user_id, action, details').eq('resource_id', made.data!.id).eq('action', 'application_password_revoked');
    expect(logged).toEqual([{ user_id: seed.users.admin.id, action: 'application_password_revoked', details: { name: 'To revoke', user_id: colleague.id } }]);
    expect((await call('/wp-json/wp/v2/users/me', { auth: [colleague.email, made.data!.password], ip: '203.0.113.40' })).status).toBe(401);
  });
});

