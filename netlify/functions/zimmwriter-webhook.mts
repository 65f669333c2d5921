import type { Config } from '@netlify/functions';
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { WebhookPayloadSchema, type WebhookPayload } from '../../src/schemas/webhook.ts';
import { readJson } from './_shared/http.ts';
import { serviceClient } from './_shared/supabase.ts';
import { asDeliveryProblem, deliverWebhookPost, DeliveryProblem, recordFailedDelivery, type DeliveryOrganization } from './_shared/webhook-delivery.ts';

/** Netlify's own limit for a synchronous function's request body. */
export const MAX_BODY_BYTES = 6_000_000;

/** The functions' JSON answer `{ message }`, with `details` when there are any. */
function answer(status: number, text: string, details?: unknown, headers?: HeadersInit): Response {
  return Response.json(details === undefined ? { message: text } : { message: text, details }, { status, headers });
}

/**
 * POST /api/webhooks/zimmwriter/{token}: the writing tool delivers a finished article. The token names the
 * organization; the post is created or, for a slug seen before, updated (201 / 200 with
 * `{ post_id, status, url }`); a published post requests a rebuild of the site. Every delivery of a known
 * organization is recorded in webhook_deliveries, failures included.
 */
export default async (req: Request): Promise<Response> => {
  if (req.method !== 'POST') return answer(405, `Method ${req.method} not allowed: deliveries are POSTed`, undefined, { Allow: 'POST' });
  const client = webhookClient();
  const org = await organizationForToken(client, tokenFrom(req));
  if (!org) return answer(404, 'Unknown webhook token');
  let payload: WebhookPayload;
  try {
    const parsed = WebhookPayloadSchema.safeParse(await readJson(req, { maxBytes: MAX_BODY_BYTES }));
    if (!parsed.success) throw new DeliveryProblem(422, 'Invalid payload', problemsOf(parsed.error));
    payload = parsed.data;
  } catch (error) {
    const failure = asDeliveryProblem(error);
    await recordFailedDelivery(client, org, failure);
    return answer(failure.status, failure.message, failure.details);
  }
  try {
    const post = await deliverWebhookPost(client, org, payload);
    return Response.json({ post_id: post.post_id, status: post.status, url: post.url }, { status: post.created ? 201 : 200 });
  } catch (error) {
    // deliverWebhookPost has recorded the failure already.
    const failure = asDeliveryProblem(error);
    return answer(failure.status, failure.message, failure.details);
  }
};

export const config: Config = { path: '/api/webhooks/zimmwriter/:token' };

// One client per warm function instance: supabase-js keeps no session, so deliveries can share it.
let cachedClient: SupabaseClient | undefined;
function webhookClient(): SupabaseClient {
  cachedClient ??= serviceClient();
  return cachedClient;
}

/** The token is the last path segment; its hash is looked up (so no comparison leaks how close a guess was). */
function tokenFrom(req: Request): string {
  return decodeURIComponent(new URL(req.url).pathname.split('/').filter(Boolean).at(-1) ?? '');
}

/**
 * The organization of a token (current, or previous within its 24 h grace). Known and unknown tokens take
 * the same path: one SHA-256 in Postgres and a unique-index lookup of the hash.
 */
async function organizationForToken(client: SupabaseClient, token: string): Promise<DeliveryOrganization | null> {
  if (token.length < 16 || token.length > 200) return null;
  const { data: id, error } = await client.rpc('organization_for_webhook_token', { p_token: token });
  if (error) throw new Error(`Token lookup failed: ${error.message}`);
  if (!id) return null;
  const { data, error: orgError } = await client.from('organizations').select('id, slug, domain').eq('id', id).single();
  if (orgError) throw new Error(`Organization ${id} lookup failed: ${orgError.message}`);
  return data as DeliveryOrganization;
}

/** Zod issues as `{ path, message }` pairs, e.g. `{ path: 'title', message: 'Title is required' }`. */
function problemsOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}
