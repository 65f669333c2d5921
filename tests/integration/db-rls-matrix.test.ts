import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, createMember, directTokenClient, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

// The access matrix: every table × operation × role, through supabase-js against the backend.
// Targets are rows of scale-pro; "otherAdmin" is evergreen's admin; "inactive" is a deactivated scale-pro
// editor whose access token is still valid; "directAdmin" is scale-pro's admin with a session taken straight
// from Auth's token endpoint, walking around the sign-in function and its lockout. An operation is allowed when it reaches the target row
// (select returns it, insert succeeds, update/delete report the row), denied on an error or zero rows.

const ROLES = ['anon', 'viewer', 'editor', 'admin', 'otherAdmin', 'inactive', 'directAdmin', 'service'] as const;
type Role = (typeof ROLES)[number];
type Operation = 'select' | 'insert' | 'update' | 'delete';
const OPERATIONS: Operation[] = ['select', 'insert', 'update', 'delete'];

type Row = Record<string, unknown> & { cleanup?: () => PromiseLike<unknown> };
type Target = { key: string; value: string; cleanup?: () => PromiseLike<unknown> };

/** How to exercise one table: a row to read/update, a row to insert, a disposable row to delete. */
type TableSpec = {
  table: string;
  /** Which roles may do what, letters S I U D per role in ROLES order. */
  allowed: Record<Role, string>;
  select: { columns: string; key: string; value: string };
  /** The row to insert; may prepare (with the service role) what it needs and undo it afterwards. */
  insertRow: (role: Role) => Row | Promise<Row>;
  insertKey?: string;
  update: { key: string; value: string; patch: Record<string, unknown> };
  /** Creates (with the service role) a row that the delete case then tries to remove. */
  disposable: (service: SupabaseClient) => Promise<Target>;
};

const SP = seed.scalePro;
const service = serviceClient();
const DEV_BUILD_HOOK = 'https://api.netlify.com/build_hooks/scale-pro-dev';
const restoreRebuildSettings = () => service.from('site_rebuild_settings').upsert({ organization_id: SP, build_hook_url: DEV_BUILD_HOOK });

const uid = () => crypto.randomUUID();
const hex64 = () => (crypto.randomUUID() + crypto.randomUUID()).replaceAll('-', '').slice(0, 64);
/** A day long before the seed's posts, different on every call: a day-count row no other row shares. */
const pastDay = () => new Date(Date.UTC(1990, 0, 1) + Math.floor(Math.random() * 10_000) * 86_400_000).toISOString().slice(0, 10);
const actorId = (role: Role) =>
  role === 'admin' ? seed.users.admin.id : role === 'otherAdmin' ? seed.users.otherAdmin.id : role === 'viewer' ? seed.users.viewer.id : seed.users.editor.id;

async function insertWithService(service: SupabaseClient, table: string, row: Record<string, unknown>, key = 'id'): Promise<Target> {
  const { error } = await service.from(table).insert(row);
  if (error) throw new Error(`setup insert into ${table}: ${error.message}`);
  return { key, value: String(row[key]) };
}

// A deactivated account and an untrusted session are refused outright (private.check_request), public rows included.
const publicRead = { anon: 'S', viewer: 'S', editor: 'S', otherAdmin: 'S', inactive: '', directAdmin: '' };

const specs: TableSpec[] = [
  {
    table: 'organizations',
    allowed: { ...publicRead, admin: 'SU', service: 'SIUD' },
    select: { columns: 'id, name, settings', key: 'id', value: SP },
    insertRow: () => ({ id: uid(), name: 'Matrix Org', slug: `matrix-${uid().slice(0, 8)}` }),
    update: { key: 'id', value: SP, patch: { name: 'Scale Pro Marketing' } },
    disposable: (s) => insertWithService(s, 'organizations', { id: uid(), name: 'Disposable', slug: `disposable-${uid().slice(0, 8)}` }),
  },
  {
    table: 'profiles',
    allowed: { anon: '', viewer: 'S', editor: 'SU', admin: 'SU', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, email, phone', key: 'id', value: seed.users.editor.id },
    // A profile needs its auth user: make one, drop the profile its trigger made, then try the insert.
    insertRow: async () => {
      const member = await createMember('viewer');
      await service.from('profiles').delete().eq('id', member.id);
      return { id: member.id, email: member.email, cleanup: member.remove };
    },
    update: { key: 'id', value: seed.users.editor.id, patch: { bio: 'Jordan writes about content strategy, paid media and conversion.' } },
    disposable: async () => {
      const member = await createMember('viewer');
      return { key: 'id', value: member.id, cleanup: member.remove };
    },
  },
  {
    table: 'organization_memberships',
    allowed: { anon: '', viewer: 'S', editor: 'S', admin: 'SUD', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, role', key: 'user_id', value: seed.users.editor.id },
    insertRow: () => ({ id: uid(), user_id: seed.users.otherAdmin.id, organization_id: SP, role: 'viewer' }),
    update: { key: 'user_id', value: seed.users.viewer.id, patch: { role: 'viewer' } },
    disposable: (s) => insertWithService(s, 'organization_memberships', { id: uid(), user_id: seed.users.otherAdmin.id, organization_id: SP, role: 'viewer' }),
  },
  {
    // The Users tab's view (security invoker): memberships with profiles, read-only, visible to fellow members.
    table: 'organization_members',
    allowed: { anon: '', viewer: 'S', editor: 'S', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'S' },
    select: { columns: 'id, role, is_active, email', key: 'id', value: seed.users.editor.id },
    insertRow: () => ({ id: seed.users.otherAdmin.id, organization_id: SP, role: 'viewer' }),
    update: { key: 'id', value: seed.users.viewer.id, patch: { role: 'viewer' } },
    disposable: async (s) => {
      const membership = await insertWithService(s, 'organization_memberships', { id: uid(), user_id: seed.users.otherAdmin.id, organization_id: SP, role: 'viewer' });
      return { key: 'id', value: seed.users.otherAdmin.id, cleanup: () => s.from('organization_memberships').delete().eq('id', membership.value) };
    },
  },
  {
    table: 'blog_categories',
    allowed: { ...publicRead, editor: 'SIUD', admin: 'SIUD', service: 'SIUD' },
    select: { columns: 'id, name', key: 'id', value: seed.category },
    insertRow: () => ({ id: uid(), organization_id: SP, name: 'Matrix', slug: `matrix-${uid().slice(0, 8)}` }),
    update: { key: 'id', value: seed.category, patch: { name: 'SEO Strategies' } },
    disposable: (s) => insertWithService(s, 'blog_categories', { id: uid(), organization_id: SP, name: 'Disposable', slug: `disposable-${uid().slice(0, 8)}` }),
  },
  {
    table: 'blog_posts',
    allowed: { anon: '', viewer: 'S', editor: 'SIU', admin: 'SIUD', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, title, status', key: 'id', value: seed.draftPost },
    insertRow: (role) => ({ id: uid(), organization_id: SP, title: 'Matrix post', slug: `matrix-${uid().slice(0, 8)}`, content: '<p>x</p>', author_id: actorId(role) }),
    update: { key: 'id', value: seed.draftPost, patch: { title: 'AI Search and Your Website: A First Look' } },
    // Authored by the admin: editors may delete only their own posts (tested separately).
    disposable: (s) => insertWithService(s, 'blog_posts', { id: uid(), organization_id: SP, title: 'Disposable', slug: `disposable-${uid().slice(0, 8)}`, content: '<p>x</p>', author_id: seed.users.admin.id }),
  },
  {
    table: 'blog_post_redirects',
    allowed: { ...publicRead, editor: 'SIUD', admin: 'SIUD', service: 'SIUD' },
    select: { columns: 'id, old_slug, post_id', key: 'old_slug', value: 'seo-strategies-2025' },
    insertRow: () => ({ id: uid(), organization_id: SP, old_slug: `matrix-${uid().slice(0, 8)}`, post_id: seed.publishedPost }),
    update: { key: 'old_slug', value: 'seo-strategies-2025', patch: { post_id: seed.publishedPost } },
    disposable: (s) => insertWithService(s, 'blog_post_redirects', { id: uid(), organization_id: SP, old_slug: `disposable-${uid().slice(0, 8)}`, post_id: seed.publishedPost }),
  },
  {
    // Day counts: members read, only the database (count_post_view) and the service role write.
    table: 'post_view_days',
    allowed: { anon: '', viewer: 'S', editor: 'S', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'post_id, day, views', key: 'post_id', value: seed.publishedPost },
    insertRow: () => ({ post_id: seed.draftPost, organization_id: SP, day: pastDay(), views: 1 }),
    insertKey: 'day',
    update: { key: 'post_id', value: seed.publishedPost, patch: { organization_id: SP } },
    disposable: (s) => insertWithService(s, 'post_view_days', { post_id: seed.draftPost, organization_id: SP, day: pastDay(), views: 1 }, 'day'),
  },
  {
    table: 'user_invitations',
    allowed: { anon: '', viewer: '', editor: '', admin: 'SIUD', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, email, role', key: 'id', value: seed.invitation },
    insertRow: (role) => ({ id: uid(), organization_id: SP, email: `matrix-${uid().slice(0, 8)}@example.com`, role: 'viewer', token_hash: hex64(), invited_by: actorId(role) }),
    update: { key: 'id', value: seed.invitation, patch: { role: 'editor' } },
    disposable: (s) => insertWithService(s, 'user_invitations', { id: uid(), organization_id: SP, email: `disposable-${uid().slice(0, 8)}@example.com`, token_hash: hex64() }),
  },
  {
    table: 'user_activity_logs',
    allowed: { anon: '', viewer: '', editor: '', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    // The admin's own entries: everyone else may read only their own.
    select: { columns: 'id, action', key: 'user_id', value: seed.users.admin.id },
    insertRow: (role) => ({ id: uid(), user_id: actorId(role), organization_id: SP, action: 'matrix_probe' }),
    update: { key: 'user_id', value: seed.users.admin.id, patch: { details: {} } },
    disposable: (s) => insertWithService(s, 'user_activity_logs', { id: uid(), user_id: seed.users.editor.id, organization_id: SP, action: 'disposable_probe' }),
  },
  {
    table: 'login_attempts',
    allowed: { anon: '', viewer: '', editor: '', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, success', key: 'email', value: seed.users.editor.email },
    insertRow: () => ({ id: uid(), email: seed.users.editor.email, success: false, failure_reason: 'matrix' }),
    update: { key: 'email', value: seed.users.editor.email, patch: { user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0' } },
    disposable: (s) => insertWithService(s, 'login_attempts', { id: uid(), email: seed.users.editor.email, success: false }),
  },
  {
    table: 'newsletter_subscribers',
    allowed: { anon: '', viewer: '', editor: '', admin: 'SD', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, email', key: 'email', value: 'reader@example.com' },
    insertRow: () => ({ id: uid(), organization_id: SP, email: `matrix-${uid().slice(0, 8)}@example.com` }),
    update: { key: 'email', value: 'reader@example.com', patch: { email: 'reader@example.com' } },
    disposable: (s) => insertWithService(s, 'newsletter_subscribers', { id: uid(), organization_id: SP, email: `disposable-${uid().slice(0, 8)}@example.com` }),
  },
  {
    table: 'webhook_integrations',
    allowed: { anon: '', viewer: '', editor: '', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, organization_id, rotated_at', key: 'organization_id', value: SP },
    insertRow: () => ({ id: uid(), organization_id: seed.evergreen, token_hash: hex64() }),
    insertKey: 'id',
    update: { key: 'organization_id', value: SP, patch: { rotated_at: null } },
    disposable: async (s) => {
      const org = await insertWithService(s, 'organizations', { id: uid(), name: 'Hook org', slug: `hook-${uid().slice(0, 8)}` });
      const target = await insertWithService(s, 'webhook_integrations', { id: uid(), organization_id: org.value, token_hash: hex64() });
      return { ...target, cleanup: () => s.from('organizations').delete().eq('id', org.value) };
    },
  },
  {
    table: 'webhook_deliveries',
    allowed: { anon: '', viewer: '', editor: '', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, status_code', key: 'organization_id', value: SP },
    insertRow: () => ({ id: uid(), organization_id: SP, status_code: 422, error: 'matrix' }),
    update: { key: 'organization_id', value: SP, patch: { error: null } },
    disposable: (s) => insertWithService(s, 'webhook_deliveries', { id: uid(), organization_id: SP, status_code: 500 }),
  },
  {
    table: 'site_rebuild_settings',
    allowed: { anon: '', viewer: '', editor: '', admin: 'SIUD', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'organization_id, build_hook_url', key: 'organization_id', value: SP },
    // One row per organization: the insert and delete cases remove scale-pro's row first and put it back.
    insertRow: async () => {
      await service.from('site_rebuild_settings').delete().eq('organization_id', SP);
      return { organization_id: SP, build_hook_url: 'https://api.netlify.com/build_hooks/matrix', cleanup: restoreRebuildSettings };
    },
    insertKey: 'organization_id',
    update: { key: 'organization_id', value: SP, patch: { build_hook_url: DEV_BUILD_HOOK } },
    disposable: async () => ({ key: 'organization_id', value: SP, cleanup: restoreRebuildSettings }),
  },
  {
    table: 'site_rebuild_requests',
    allowed: { anon: '', viewer: '', editor: '', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, batch_id', key: 'organization_id', value: SP },
    insertRow: () => ({ id: uid(), organization_id: SP, reason: 'matrix' }),
    update: { key: 'organization_id', value: SP, patch: { not_before: null } },
    disposable: (s) => insertWithService(s, 'site_rebuild_requests', { id: uid(), organization_id: SP, reason: 'disposable' }),
  },
  {
    table: 'site_rebuild_sends',
    allowed: { anon: '', viewer: '', editor: '', admin: 'S', otherAdmin: '', inactive: '', directAdmin: '', service: 'SIUD' },
    select: { columns: 'id, state', key: 'organization_id', value: SP },
    insertRow: () => ({ id: uid(), organization_id: SP, state: 'skipped' }),
    update: { key: 'organization_id', value: SP, patch: { error: null } },
    disposable: (s) => insertWithService(s, 'site_rebuild_sends', { id: uid(), organization_id: SP, state: 'skipped' }),
  },
];


const clients = {} as Record<Role, SupabaseClient>;
let inactiveMember: Awaited<ReturnType<typeof createMember>>;
beforeAll(async () => {
  inactiveMember = await createMember('editor');
  clients.anon = anonClient();
  clients.service = service;
  clients.viewer = await signedInClient(seed.users.viewer.email);
  clients.editor = await signedInClient(seed.users.editor.email);
  clients.admin = await signedInClient(seed.users.admin.email);
  clients.otherAdmin = await signedInClient(seed.users.otherAdmin.email);
  clients.inactive = await signedInClient(inactiveMember.email);
  clients.directAdmin = await directTokenClient(seed.users.admin.email);
  const { error } = await service.from('profiles').update({ is_active: false }).eq('id', inactiveMember.id);
  if (error) throw new Error(`deactivating the test member: ${error.message}`);
  // Rows the select/update cases target and that the seed does not have.
  await restoreRebuildSettings();
});

afterAll(async () => {
  await inactiveMember?.remove();
  await service.from('site_rebuild_settings').delete().in('organization_id', [SP, seed.evergreen]);
  await service.from('webhook_integrations').delete().eq('organization_id', seed.evergreen);
  await service.from('organization_memberships').delete().eq('user_id', seed.users.otherAdmin.id).eq('organization_id', SP);
  await service.from('user_invitations').update({ role: 'editor' }).eq('id', seed.invitation);
});

async function attempt(spec: TableSpec, operation: Operation, role: Role): Promise<boolean> {
  const client = clients[role];
  switch (operation) {
    case 'select': {
      const { data, error } = await client.from(spec.table).select(spec.select.columns).eq(spec.select.key, spec.select.value);
      return !error && (data?.length ?? 0) > 0;
    }
    case 'insert': {
      const { cleanup, ...row } = await spec.insertRow(role);
      const key = spec.insertKey ?? 'id';
      try {
        const { error } = await client.from(spec.table).insert(row);
        if (!error) await service.from(spec.table).delete().eq(key, row[key] as string);
        return !error;
      } finally {
        await cleanup?.();
      }
    }
    case 'update': {
      const { data, error } = await client.from(spec.table).update(spec.update.patch).eq(spec.update.key, spec.update.value).select(spec.update.key);
      return !error && (data?.length ?? 0) > 0;
    }
    case 'delete': {
      const target = await spec.disposable(service);
      try {
        await client.from(spec.table).delete().eq(target.key, target.value);
        const { data } = await service.from(spec.table).select(target.key).eq(target.key, target.value);
        return (data?.length ?? 0) === 0;
      } finally {
        await service.from(spec.table).delete().eq(target.key, target.value);
        await target.cleanup?.();
      }
    }
  }
}

const letter: Record<Operation, string> = { select: 'S', insert: 'I', update: 'U', delete: 'D' };
const cases = specs.flatMap((spec) =>
  OPERATIONS.flatMap((operation) =>
    ROLES.map((role) => ({ spec, operation, role, expected: spec.allowed[role].includes(letter[operation]) })),
  ),
);

describe('row level security matrix', () => {
  it.each(cases.map((c) => [c.spec.table, c.operation, c.role, c.expected ? 'allowed' : 'denied', c] as const))(
    '%s %s by %s is %s',
    async (_table, _operation, _role, _expected, c) => {
      expect(await attempt(c.spec, c.operation, c.role)).toBe(c.expected);
    },
  );
});
