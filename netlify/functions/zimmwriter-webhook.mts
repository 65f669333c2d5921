import type { Config } from '@netlify/functions';
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { WebhookPayloadSchema } from '../../src/schemas/webhook.ts';
import { FUNCTION_BODY_LIMIT_BYTES, readJson } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { asDeliveryProblem, type Delivery, DeliveryProblem, receiveDelivery } from '../../src/lib/server/webhook-delivery.ts';

/** The functions' JSON answer `{ message }`, with `details` when there are any. */
function answer(status: number, text: string, details?: unknown, headers?: HeadersInit): Response {
  return Response.json(details === undefined ? { message: text } : { message: text, details }, { status, headers });
}

/**
 * POST /api/webhooks/zimmwriter/{token}: the writing tool delivers a finished article. The token names the
 * organization; the post is created or, for a slug seen before, updated (201 / 200 with
 * `{ post_id, status, url }`); a published post requests a rebuild of the site. Every delivery of a known
 * organization is recorded in webhook_deliveries, failures included.
 *
 * The body is read, validated and sanitized before the token is checked: the check and every write are one
 * call to Postgres (receive_webhook_delivery). An unknown token is answered 404 after the same work as a
 * known one, with nothing written.
 */
export default async (req: Request): Promise<Response> => {
  if (req.method !== 'POST') return answer(405, `Method ${req.method} not allowed: deliveries are POSTed`, undefined, { Allow: 'POST' });
  const token = tokenFrom(req);
  // Not a token rotate_webhook_token (or the seed) could have made: no need to ask the database.
  if (token.length < 16 || token.length > 200) return answer(404, 'Unknown webhook token');
  let delivery: Delivery;
  try {
    const parsed = WebhookPayloadSchema.safeParse(await readJson(req, { maxBytes: FUNCTION_BODY_LIMIT_BYTES }));
    delivery = parsed.success ? { payload: parsed.data } : { refused: new DeliveryProblem(422, 'Invalid payload', problemsOf(parsed.error)) };
  } catch (error) {
    delivery = { refused: asDeliveryProblem(error) };
  }
  try {
    const post = await receiveDelivery(webhookClient(), { token }, delivery);
    if (!post) return answer(404, 'Unknown webhook token');
    return Response.json({ post_id: post.post_id, status: post.status, url: post.url }, { status: post.created ? 201 : 200 });
  } catch (error) {
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

/** The token is the last path segment; Postgres looks up its hash (so no comparison leaks how close a guess was). */
function tokenFrom(req: Request): string {
  return decodeURIComponent(new URL(req.url).pathname.split('/').filter(Boolean).at(-1) ?? '');
}

/** Zod issues as `{ path, message }` pairs, e.g. `{ path: 'title', message: 'Title is required' }`. */
function problemsOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}
