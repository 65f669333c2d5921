import type { Config } from '@netlify/functions';
import type { SupabaseClient } from '@supabase/supabase-js';
import { WebhookNameSchema, WebhookPayloadSchema, WebhookTokenSchema } from '../../src/schemas/webhook.ts';
import { FUNCTION_BODY_LIMIT_BYTES, HttpError, readJson, serverError } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { DeliveryProblem, invalidPayload, payloadProblems } from '../../src/lib/server/post-arrival.ts';
import { type Delivery, previewDelivery, receiveDelivery, webhookOrganizationId } from '../../src/lib/server/webhook-delivery.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/** The functions' JSON answer `{ message }`, with `details` when there are any. */
function answer(status: number, text: string, details?: unknown, headers?: HeadersInit): Response {
  return Response.json(details === undefined ? { message: text } : { message: text, details }, { status, headers });
}

/** The one answer to every token that names no organization, whatever its shape and whatever the body. */
const unknownToken = () => answer(404, 'Unknown webhook token');

/**
 * POST /api/webhooks/zimmwriter/{token}: the writing tool delivers a finished article. The token names the
 * organization; the post is created or, for a slug seen before, updated (201 / 200 with
 * `{ post_id, status, url, category: { name, sent, mapped, created, needs_review } }`: the category it landed
 * in, see DeliveredCategory; and `scheduled_for: { utc, local, time_zone, queued }` for a post stored as
 * scheduled, see ScheduledFor); a published post requests a rebuild of the site. A payload it refuses is 422
 * `{ message: 'Invalid payload: title: Title is required', details: [{ path, message }] }`. A new article that likely
 * repeats one of the organization's posts is saved as a draft marked as a possible duplicate: 200 with
 * `{ post_id, status: 'draft', url, message, duplicate_of: { post_id, title, url, reason } }`. Every delivery of a known
 * organization is recorded in webhook_deliveries, failures included. The same payload sent again within 7 days
 * (the tool retrying) gets the first delivery's answer again, with `Idempotent-Replayed: true`, and writes
 * nothing (webhook-delivery.ts deliveryKey).
 *
 * The token is checked before anything else: an unknown one costs one lookup (organization_for_webhook_token)
 * and is answered 404 with the body never read, parsed, rendered or sanitized, and nothing written. A known
 * token's delivery then makes one call for all its writes (receive_arrival, which checks the token
 * again in its transaction). While the backend is out of reach it answers 503 with Retry-After (withBackend:
 * the writing tool tries again then). Another failure on our side answers 500 with a generic message and a
 * reference; the details go to the log (and, for the delivery, to its record in the delivery log).
 *
 * `?dry_run=1` (what `npm run site:check -- <site> --token <token>` sends): the same token check and payload
 * validation, then the answer of the back office's test (200 `{ dry_run: true, action, status, url, ... }`,
 * previewDelivery) or the same 422; nothing is written, not even a delivery record.
 */
export default withBackend(async (req: Request): Promise<Response> => {
  if (req.method !== 'POST') return answer(405, `Method ${req.method} not allowed: deliveries are POSTed`, undefined, { Allow: 'POST' });
  const token = WebhookTokenSchema.safeParse(tokenFrom(req));
  if (!token.success) return unknownToken();
  try {
    const organizationId = await webhookOrganizationId(webhookClient(), token.data);
    if (!organizationId) return unknownToken();
    if (new URL(req.url).searchParams.has('dry_run')) return await dryRun(organizationId, await deliveryFrom(req));
    const post = await receiveDelivery(webhookClient(), { token: token.data, organizationId }, await deliveryFrom(req));
    // The token was rotated away (past its grace period) while the body was read: nothing was written.
    if (!post) return unknownToken();
    if (post.duplicate_of) {
      // A likely repeat: stored as a draft for an editor to look at, so the answer is 200 with the reason.
      const { duplicate_of: original } = post;
      return Response.json(
        {
          post_id: post.post_id,
          status: post.status,
          url: post.url,
          category: post.category,
          message: `Possible duplicate of “${original.title}” (${original.reason}): saved as a draft`,
          duplicate_of: original,
        },
        { status: 200, headers: post.replayed ? { 'idempotent-replayed': 'true' } : undefined },
      );
    }
    return Response.json(
      { post_id: post.post_id, status: post.status, url: post.url, category: post.category, ...(post.scheduled_for ? { scheduled_for: post.scheduled_for } : {}) },
      { status: post.created ? 201 : 200, headers: post.replayed ? { 'idempotent-replayed': 'true' } : undefined },
    );
  } catch (error) {
    if (error instanceof DeliveryProblem) return answer(error.status, error.message, error.details);
    return serverError('Could not store the post', error);
  }
});

export const config: Config = { path: '/api/webhooks/zimmwriter/:token' };

/** A dry run: what the delivery would do, or why it would be refused; writes nothing. */
async function dryRun(organizationId: string, delivery: Delivery): Promise<Response> {
  if ('refused' in delivery) throw delivery.refused;
  const preview = await previewDelivery(webhookClient(), organizationId, delivery.payload);
  return preview ? Response.json({ dry_run: true, ...preview }) : unknownToken();
}

/** The body as a validated payload, or why it is refused (400 not JSON, 413 too large, 422 invalid fields). */
async function deliveryFrom(req: Request): Promise<Delivery> {
  try {
    const body = await readJson(req, { maxBytes: FUNCTION_BODY_LIMIT_BYTES });
    const parsed = WebhookPayloadSchema.safeParse(body);
    if (parsed.success) return { payload: parsed.data };
    const name = WebhookNameSchema.safeParse((body as { webhook_name?: unknown } | null)?.webhook_name);
    return { refused: invalidPayload(payloadProblems(parsed.error)), ...(name.success ? { webhookName: name.data } : {}) };
  } catch (error) {
    if (error instanceof HttpError) return { refused: new DeliveryProblem(error.status, error.message) };
    throw error;
  }
}

// One client per warm function instance: supabase-js keeps no session, so deliveries can share it.
let cachedClient: SupabaseClient | undefined;
function webhookClient(): SupabaseClient {
  cachedClient ??= serviceClient();
  return cachedClient;
}

/**
 * The token is the last path segment; Postgres looks up its hash (so no comparison leaks how close a guess
 * was). A segment that is not valid percent-encoding is no token ('').
 */
function tokenFrom(req: Request): string {
  try {
    return decodeURIComponent(new URL(req.url).pathname.split('/').filter(Boolean).at(-1) ?? '');
  } catch {
    return '';
  }
}
