/**
 * Exactly once under retries, through the real webhook function and Postgres: the same payload sent again
 * (the writing tool retrying after a timeout, a 503 or a dropped connection; sequentially, with its fields in
 * another order, or ten times at once) is answered with the first delivery's outcome and writes nothing more:
 * one post, one revision, one delivery record, one rebuild request, one audit entry. A changed field is a new
 * delivery; a key older than 7 days is forgotten. The keys are out of every API client's reach.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import { anonClient, seed, signedInClient, withDatabase } from './support/db-fixtures.ts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { deliveryKey } from '../../src/lib/server/webhook-delivery.ts';
import { WebhookPayloadSchema } from '../../src/schemas/webhook.ts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs: string[] = [];
const word = () => Array.from({ length: 3 + Math.floor(Math.random() * 7) }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

/** A payload of its own (a new slug and article), as the tool sends it. */
function payload(name: string): Record<string, unknown> {
  const slug = `idem-${name}-${run}`;
  slugs.push(slug);
  return { webhook_name: 'Retries', title: `Retried ${name} ${run}`, slug, html: `<p>${Array.from({ length: 120 }, word).join(' ')}.</p>`, tags: 'a, b' };
}

async function deliver(body: unknown) {
  const response = await webhook(webhookRequest(SCALE_PRO.token, body));
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), json: (await response.json()) as { post_id: string } };
}

/** What the deliveries of a slug wrote. */
async function written(slug: string) {
  const posts = must(await db.from('blog_posts').select('id').eq('slug', slug), 'posts');
  const ids = posts.map((post) => post.id as string);
  const count = async (table: string, column: string, values: string[]) =>
    (await db.from(table).select('*', { count: 'exact', head: true }).in(column, values)).count ?? 0;
  return {
    posts: posts.length,
    revisions: await count('blog_post_revisions', 'post_id', ids),
    audit: await count('user_activity_logs', 'resource_id', ids),
    deliveries: await count('webhook_deliveries', 'slug', [slug]),
    rebuilds: must(await db.from('site_rebuild_requests').select('reason').eq('organization_id', SCALE_PRO.id).gte('requested_at', since), 'requests').filter(
      (request) => (request.reason as string).includes(slug),
    ).length,
  };
}

afterAll(async () => {
  const ids = must(await db.from('blog_posts').select('id').in('slug', slugs), 'test posts').map((post) => post.id as string);
  check(await db.from('user_activity_logs').delete().in('resource_id', ids), 'remove audit entries');
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id], since });
  await withDatabase((sql) => sql.query('delete from private.webhook_delivery_keys where received_at >= $1', [since]));
});

describe('a delivery sent again', () => {
  it('is answered with the first outcome and writes nothing more', async () => {
    const body = payload('again');
    const first = await deliver(body);
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    const before = await written(body.slug as string);
    expect(before).toEqual({ posts: 1, revisions: 1, audit: 1, deliveries: 1, rebuilds: 1 });

    const again = await deliver(body);
    expect(again.status).toBe(201);
    expect(again.replayed).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await written(body.slug as string)).toEqual(before);
  });

  it('is recognised whatever the order of its fields', async () => {
    const body = payload('reordered');
    const first = await deliver(body);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    const again = await deliver(reordered);
    expect(again.replayed).toBe('true');
    expect(again.json.post_id).toBe(first.json.post_id);
    expect((await written(body.slug as string)).revisions).toBe(1);
  });

  it('ten times at once stores one post, once', async () => {
    const body = payload('burst');
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(body)));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((answer) => answer.json.post_id)).size).toBe(1);
    expect(answers.filter((answer) => answer.replayed === null)).toHaveLength(1);
    expect(await written(body.slug as string)).toEqual({ posts: 1, revisions: 1, audit: 1, deliveries: 1, rebuilds: 1 });
  });

  it('with a changed field is a new delivery of the same post (an update)', async () => {
    const body = payload('changed');
    const first = await deliver(body);
    const changed = await deliver({ ...body, title: `${body.title as string} (revised)` });
    expect(changed.status).toBe(200);
    expect(changed.replayed).toBeNull();
    expect(changed.json.post_id).toBe(first.json.post_id);
    expect((await written(body.slug as string)).deliveries).toBe(2);
  });

  it('after more than 7 days is a new delivery again', async () => {
    const body = payload('later');
    await deliver(body);
    const key = deliveryKey(WebhookPayloadSchema.parse(body));
    await withDatabase((sql) =>
      sql.query("update private.webhook_delivery_keys set received_at = now() - interval '9 days' where organization_id = $1 and key = $2", [SCALE_PRO.id, key]),
    );
    const later = await deliver(body);
    expect(later.replayed).toBeNull();
    expect(later.status).toBe(200);
    expect((await written(body.slug as string)).deliveries).toBe(2);
  });
});

describe('the idempotency keys', () => {
  it('are out of reach of anon and members through the REST API; the delivery function is the service role’s alone', async () => {
    const editor = await signedInClient(seed.users.editor.email);
    for (const client of [anonClient(), editor]) {
      const { data, error } = await client.schema('private' as 'public').from('webhook_delivery_keys').select('key');
      expect(data).toBeNull();
      expect(error).not.toBeNull();
      const call = await client.rpc('receive_arrival', { p_arrival: { organization_id: SCALE_PRO.id, post: { slug: `idem-forged-${run}`, title: 'Forged', content: '<p>x</p>' }, idempotency_key: 'a'.repeat(64) } });
      expect(call.error).not.toBeNull();
    }
    expect(await withDatabase(async (sql) => (await sql.query('select count(*)::int as n from public.blog_posts where slug = $1', [`idem-forged-${run}`])).rows[0].n)).toBe(0);
  });
});
