/**
 * Client calendar links (public.create_client_calendar_link, revoke_client_calendar_link, client_calendar;
 * migration 20261129003400_client_calendar_links.sql) against the worker's seeded backend, on an organization of
 * its own: an admin makes a link (its token answered once, only its hash kept), anyone holding it reads the site's
 * upcoming posts (titles, times, queued or not) without signing in, and the making, the opening (once an hour) and
 * the revoking are logged. As an attacker: editors, viewers, other organizations' admins, the anon key and a
 * session Auth issued without the app's sign-in make and revoke nothing; a guessed, malformed, expired or revoked
 * token reads nothing and is refused in the same words; the table never shows a hash, nor anyone's links to a
 * non-admin; bad input is refused with the reason and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeMember } from './support/auth-users.ts';
import { anonClient, createMember, directTokenClient, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';
import { readClientCalendar } from '../../src/lib/client-calendar.ts';

const service = serviceClient();
const DAY = 86_400_000;
const own = { id: crypto.randomUUID(), name: 'Linked Client', slug: `linked-client-${Date.now().toString(36)}` };
type Member = Awaited<ReturnType<typeof createMember>>;
let admin: Member;
let editor: Member;
let viewer: Member;
let outsider: Member;
const REFUSAL = 'This calendar link is not valid: it may have expired or been turned off. Ask whoever sent it for a new one.';

async function insertPost(organizationId: string, title: string, fields: Record<string, unknown>): Promise<string> {
  const { data, error } = await service
    .from('blog_posts')
    .insert({ organization_id: organizationId, title, slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${crypto.randomUUID().slice(0, 6)}`, content: '<p>Secret body.</p>', ...fields })
    .select('id')
    .single();
  if (error) throw new Error(`adding ${title}: ${error.message}`);
  return data.id as string;
}

const links = async () => (await service.from('client_calendar_links').select('*').eq('organization_id', own.id).order('created_at')).data ?? [];
const logged = async (action: string) =>
  (await service.from('user_activity_logs').select('user_id, action, resource_id, details').eq('organization_id', own.id).eq('action', action)).data ?? [];

beforeAll(async () => {
  const inserted = await service.from('organizations').insert(own);
  if (inserted.error) throw new Error(inserted.error.message);
  admin = await createMember('viewer', seed.evergreen);
  editor = await createMember('viewer', seed.evergreen);
  viewer = await createMember('viewer', seed.evergreen);
  outsider = await createMember('admin', seed.evergreen);
  for (const [user, role] of [[admin, 'admin'], [editor, 'editor'], [viewer, 'viewer']] as const) {
    const { error } = await service.from('organization_memberships').insert({ user_id: user.id, organization_id: own.id, role });
    if (error) throw new Error(error.message);
  }
  await insertPost(own.id, 'Going out Friday', { status: 'scheduled', published_at: new Date(Date.now() + 3 * DAY).toISOString() });
  await insertPost(own.id, 'Queued for later', { status: 'scheduled', queued: true, published_at: new Date(Date.now() + 5 * DAY).toISOString() });
  await insertPost(own.id, 'A draft in the works', { status: 'draft' });
  await insertPost(own.id, 'Already live', { status: 'published', published_at: new Date(Date.now() - DAY).toISOString() });
  await insertPost(own.id, 'Trashed plan', { status: 'draft', published_at: new Date(Date.now() + 4 * DAY).toISOString(), trashed_at: new Date().toISOString() });
});

afterAll(async () => {
  await service.from('organizations').delete().eq('id', own.id);
  for (const member of [admin, editor, viewer, outsider]) if (member) await removeMember(member);
});

describe('client calendar links', () => {
  let token: string;
  let linkId: string;

  it('an admin makes a link: the token is answered once (256 random bits), only its hash is kept, and the making is logged', async () => {
    const client = await signedInClient(admin.email);
    const { data, error } = await client.rpc('create_client_calendar_link', { p_organization_id: own.id, p_label: '  Acme team  ', p_days: 30 });
    expect(error).toBeNull();
    const made = data as { id: string; label: string; token: string; expires_at: string };
    expect(made.label).toBe('Acme team');
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(made.expires_at) - Date.now()).toBeGreaterThan(29.9 * DAY);
    token = made.token;
    linkId = made.id;
    const [row] = await links();
    expect(row).toMatchObject({ id: made.id, label: 'Acme team', created_by: admin.id, revoked_at: null, use_count: 0 });
    expect(JSON.stringify(row)).not.toContain(made.token);
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await logged('client_calendar_link_created')).toEqual([
      { user_id: admin.id, action: 'client_calendar_link_created', resource_id: made.id, details: { label: 'Acme team', expires_at: expect.any(String) } },
    ]);
  });

  it("anyone with the link reads the site's upcoming posts signed out: titles, times and whether queued, nothing else", async () => {
    const { data, error } = await anonClient().rpc('client_calendar', { p_token: token });
    expect(error).toBeNull();
    // Read as the page reads it (a shape it does not know is null).
    const calendar = readClientCalendar(data)!;
    expect(calendar).not.toBeNull();
    expect(calendar.site).toEqual({ name: 'Linked Client', time_zone: 'America/New_York' });
    expect(calendar.link.label).toBe('Acme team');
    // In time order (the queue gives the queued post its slot, which may come first).
    expect(calendar.posts.map((post) => [post.title, post.queued]).sort()).toEqual([['Going out Friday', false], ['Queued for later', true]]);
    expect(calendar.posts.map((post) => post.published_at)).toEqual(calendar.posts.map((post) => post.published_at).sort((a, b) => Date.parse(a) - Date.parse(b)));
    expect(Object.keys(calendar.posts[0]!).sort()).toEqual(['published_at', 'queued', 'title']);
    expect(JSON.stringify(data)).not.toMatch(/Secret body|A draft|Already live|Trashed/);
    const [row] = await links();
    expect(row).toMatchObject({ use_count: 1, last_used_at: expect.any(String) });
  });

  it('a use is logged once an hour however often the client reloads, and counted every time', async () => {
    await anonClient().rpc('client_calendar', { p_token: token });
    await anonClient().rpc('client_calendar', { p_token: token });
    expect(await logged('client_calendar_link_opened')).toEqual([
      { user_id: null, action: 'client_calendar_link_opened', resource_id: linkId, details: { label: 'Acme team', via: 'client_link' } },
    ]);
    expect((await links())[0]).toMatchObject({ use_count: 3 });
  });

  it('a guessed, malformed or empty token reads nothing, in the same words as any refusal, and counts nothing', async () => {
    const guessed = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const attempt of [guessed, 'A'.repeat(43), token + 'x', "' or 1=1 --", '', null]) {
      const { data, error } = await anonClient().rpc('client_calendar', { p_token: attempt });
      expect(data).toBeNull();
      expect(error).toMatchObject({ code: '28000', message: REFUSAL });
    }
    expect((await links())[0]).toMatchObject({ use_count: 3 });
  });

  it('editors, viewers, other organizations\' admins, the anon key and an unvouched session make no link, and the table shows them none', async () => {
    const attempts = [
      await signedInClient(editor.email),
      await signedInClient(viewer.email),
      await signedInClient(outsider.email),
      anonClient(),
      await directTokenClient(admin.email),
    ];
    for (const client of attempts) {
      const { data, error } = await client.rpc('create_client_calendar_link', { p_organization_id: own.id, p_label: 'Sneaky', p_days: 30 });
      expect(data).toBeNull();
      expect(error).not.toBeNull();
      const read = await client.from('client_calendar_links').select('id').eq('organization_id', own.id);
      expect(read.data ?? []).toEqual([]);
    }
    expect((await links()).map((link) => link.label)).toEqual(['Acme team']);
  });

  it('an admin reads the links without their hash; nobody writes the table directly', async () => {
    const client = await signedInClient(admin.email);
    expect((await client.from('client_calendar_links').select('id, label, use_count').eq('organization_id', own.id)).data).toEqual([{ id: linkId, label: 'Acme team', use_count: 3 }]);
    expect((await client.from('client_calendar_links').select('token_hash').eq('organization_id', own.id)).error).not.toBeNull();
    const forged = await client.from('client_calendar_links').insert({ organization_id: own.id, label: 'Forged', token_hash: 'a'.repeat(64), expires_at: new Date(Date.now() + DAY).toISOString() });
    expect(forged.error).not.toBeNull();
    const extended = await client.from('client_calendar_links').update({ expires_at: new Date(Date.now() + 900 * DAY).toISOString() }).eq('id', linkId).select();
    expect(extended.data ?? []).toEqual([]);
    expect((await links()).map((link) => link.label)).toEqual(['Acme team']);
  });

  it.each([
    ['no name', '   ', 30, 'Say who the link is for'],
    ['a name too long', 'x'.repeat(81), 30, 'at most 80 characters'],
    ['no days', 'Client', 0, 'from 1 to 365 days'],
    ['too many days', 'Client', 366, 'from 1 to 365 days'],
    ['no days at all', 'Client', null, 'from 1 to 365 days'],
  ])('refuses %s with the reason and writes nothing', async (_case, label, days, reason) => {
    const client = await signedInClient(admin.email);
    const { data, error } = await client.rpc('create_client_calendar_link', { p_organization_id: own.id, p_label: label, p_days: days });
    expect(data).toBeNull();
    expect(error?.code).toBe('22023');
    expect(error?.message).toContain(reason);
    expect(await links()).toHaveLength(1);
  });

  it('an expired link reads nothing and says so in the same words', async () => {
    const client = await signedInClient(admin.email);
    const { data } = await client.rpc('create_client_calendar_link', { p_organization_id: own.id, p_label: 'Short-lived', p_days: 1 });
    const made = data as { id: string; token: string };
    expect((await anonClient().rpc('client_calendar', { p_token: made.token })).error).toBeNull();
    await withDatabase((db) => db.query(`update public.client_calendar_links set created_at = now() - interval '2 days', expires_at = now() - interval '1 second' where id = $1`, [made.id]));
    const { data: read, error } = await anonClient().rpc('client_calendar', { p_token: made.token });
    expect(read).toBeNull();
    expect(error).toMatchObject({ code: '28000', message: REFUSAL });
  });

  it("another organization's admin cannot revoke it; its admin can, once, and then it reads nothing; the revoking is logged", async () => {
    for (const client of [await signedInClient(outsider.email), await signedInClient(editor.email), anonClient()]) {
      expect((await client.rpc('revoke_client_calendar_link', { p_id: linkId })).error).not.toBeNull();
    }
    expect((await links()).find((link) => link.id === linkId)).toMatchObject({ revoked_at: null });
    const client = await signedInClient(admin.email);
    expect((await client.rpc('revoke_client_calendar_link', { p_id: linkId })).error).toBeNull();
    expect((await links()).find((link) => link.id === linkId)).toMatchObject({ revoked_at: expect.any(String), revoked_by: admin.id });
    const again = await client.rpc('revoke_client_calendar_link', { p_id: linkId });
    expect(again.error).toMatchObject({ code: '22023', message: 'This link is already revoked.' });
    const { data, error } = await anonClient().rpc('client_calendar', { p_token: token });
    expect(data).toBeNull();
    expect(error).toMatchObject({ code: '28000', message: REFUSAL });
    expect(await logged('client_calendar_link_revoked')).toEqual([
      { user_id: admin.id, action: 'client_calendar_link_revoked', resource_id: linkId, details: { label: 'Acme team' } },
    ]);
  });

  it('holds at most 20 links in force per site', async () => {
    const client = await signedInClient(admin.email);
    const inForce = (await links()).filter((link) => !link.revoked_at && Date.parse(link.expires_at) > Date.now()).length;
    for (let i = inForce; i < 20; i++) {
      expect((await client.rpc('create_client_calendar_link', { p_organization_id: own.id, p_label: `Client ${i}`, p_days: 7 })).error).toBeNull();
    }
    const { error } = await client.rpc('create_client_calendar_link', { p_organization_id: own.id, p_label: 'One too many', p_days: 7 });
    expect(error).toMatchObject({ code: '54000' });
    expect((await links()).some((link) => link.label === 'One too many')).toBe(false);
  });
});
