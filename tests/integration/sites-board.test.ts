/**
 * The sites board's read (public.sites_board, migration 20261129003100_sites_board.sql) against the worker's
 * seeded backend: a person in two organizations gets one row per site with their role there and each site's
 * figures as the tables hold them; a deactivated membership drops its site; and as an attacker: the anon key,
 * a session Auth issued without the app's sign-in, and a member of one organization get nothing of another,
 * and the row carries no build hook, member or post content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeMember } from './support/auth-users.ts';
import { anonClient, createMember, directTokenClient, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';

const service = serviceClient();
type Member = Awaited<ReturnType<typeof createMember>>;
let agency: Member;
let loner: Member;
const created: string[] = [];

/** The figures of a site as the tables hold them, counted here by hand. */
async function figures(organizationId: string) {
  return withDatabase(async (db) => {
    const { rows } = await db.query(
      `with z as (
         select coalesce((select time_zone from public.publishing_queues where organization_id = $1), 'America/New_York') as tz
       ), m as (select date_trunc('month', now() at time zone tz) at time zone tz as start from z)
       select
         (select count(*)::int from public.blog_posts where organization_id = $1 and status = 'scheduled' and trashed_at is null
            and published_at > now() and published_at <= now() + interval '7 days') as queued,
         (select count(*)::int from public.blog_posts, m where organization_id = $1 and status = 'published' and trashed_at is null
            and published_at >= m.start and published_at <= now()) as published,
         (select coalesce(sum(views), 0)::int from public.post_view_days, m where organization_id = $1 and day >= (m.start at time zone 'UTC')::date) as views,
         (select count(*)::int from public.indexnow_submissions, m where organization_id = $1 and status = 'failed' and created_at >= m.start) as failures`,
      [organizationId],
    );
    return rows[0] as { queued: number; published: number; views: number; failures: number };
  });
}

async function addPost(organizationId: string, days: number, title: string) {
  const { data, error } = await service
    .from('blog_posts')
    .insert({ organization_id: organizationId, title, slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}`, content: '<p>Board.</p>', status: 'scheduled', published_at: new Date(Date.now() + days * 86_400_000).toISOString() })
    .select('id')
    .single();
  if (error) throw new Error(`adding ${title}: ${error.message}`);
  created.push(data.id);
}

beforeAll(async () => {
  agency = await createMember('admin', seed.scalePro);
  const { error } = await service.from('organization_memberships').insert({ user_id: agency.id, organization_id: seed.evergreen, role: 'viewer' });
  if (error) throw new Error(`second membership: ${error.message}`);
  loner = await createMember('editor', seed.scalePro);
  await addPost(seed.evergreen, 3, 'Board soon');
  await addPost(seed.evergreen, 10, 'Board later');
});

afterAll(async () => {
  if (created.length) await service.from('blog_posts').delete().in('id', created);
  for (const member of [agency, loner]) if (member) await removeMember(member);
});

describe('public.sites_board', () => {
  it('gives a person one row per site they belong to, with their role there and its figures as the tables hold them', async () => {
    const client = await signedInClient(agency.email);
    const { data, error } = await client.rpc('sites_board');
    expect(error).toBeNull();
    const rows = data as Record<string, unknown>[];
    expect(Object.fromEntries(rows.map((row) => [row.organization_id, row.role]))).toEqual({ [seed.evergreen]: 'viewer', [seed.scalePro]: 'admin' });
    // By name (Evergreen Landscaping before Scale Pro).
    expect(rows.map((row) => row.organization_id)).toEqual([seed.evergreen, seed.scalePro]);
    for (const row of rows) {
      const expected = await figures(row.organization_id as string);
      expect({ queued: row.queued_next_7_days, published: row.published_this_month, views: row.views_this_month, failures: row.indexnow_failures }, row.name as string).toEqual(expected);
      expect(row.time_zone).toMatch(/^[A-Za-z_]+\/[A-Za-z_]+$/);
    }
    // The post 3 days out counts, the one 10 days out does not.
    const evergreen = rows.find((row) => row.organization_id === seed.evergreen)!;
    expect(evergreen.queued_next_7_days).toBeGreaterThanOrEqual(1);
  });

  it('answers what the header answers for each site, and nothing a board must not show', async () => {
    const client = await signedInClient(agency.email);
    const rows = (await client.rpc('sites_board')).data as Record<string, unknown>[];
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['domain', 'indexnow_failures', 'name', 'organization_id', 'published_this_month', 'queued_next_7_days', 'role', 'slug', 'status', 'time_zone', 'views_this_month']);
      const header = (await client.rpc('site_deploy_status', { p_organization_id: row.organization_id })).data as Record<string, unknown>;
      const status = row.status as Record<string, unknown>;
      expect(Object.keys(status).sort()).toEqual(Object.keys(header).sort());
      expect(JSON.stringify(status)).not.toMatch(/build_hooks|hook_url/);
    }
  });

  it('drops a site whose membership was deactivated, and keeps the other', async () => {
    const { error } = await service.from('organization_memberships').update({ is_active: false }).eq('user_id', agency.id).eq('organization_id', seed.evergreen);
    expect(error).toBeNull();
    try {
      const client = await signedInClient(agency.email);
      const rows = (await client.rpc('sites_board')).data as { organization_id: string }[];
      expect(rows.map((row) => row.organization_id)).toEqual([seed.scalePro]);
    } finally {
      await service.from('organization_memberships').update({ is_active: true }).eq('user_id', agency.id).eq('organization_id', seed.evergreen);
    }
  });

  it('gives a member of one organization only that one, whatever they send', async () => {
    const client = await signedInClient(loner.email);
    const { data, error } = await client.rpc('sites_board');
    expect(error).toBeNull();
    expect((data as { organization_id: string }[]).map((row) => row.organization_id)).toEqual([seed.scalePro]);
    // The function takes no argument: another organization's id cannot be passed in.
    const asked = await client.rpc('sites_board', { p_organization_id: seed.evergreen } as never);
    expect(asked.error).not.toBeNull();
    expect(asked.data).toBeNull();
  });

  it('refuses the anon key and a session Auth issued without the app\'s sign-in', async () => {
    const anon = await anonClient().rpc('sites_board');
    expect(anon.error?.code).toBe('42501');
    expect(anon.data).toBeNull();
    const direct = await (await directTokenClient(agency.email)).rpc('sites_board');
    expect(direct.error?.code).toBe('PT401');
    expect(direct.data).toBeNull();
  });
});
