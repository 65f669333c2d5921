import type { Config } from '@netlify/functions';
import { WebhookPayloadSchema, WebhookTestRequestSchema } from '../../src/schemas/webhook.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { HttpError } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { DeliveryProblem, invalidPayload, payloadProblems } from '../../src/lib/server/post-arrival.ts';
import { previewDelivery } from '../../src/lib/server/webhook-delivery.ts';

/**
 * POST /api/admin/webhook-test `{ organization_id, payload }`: the ZimmWriter tab's test form, a dry run.
 * The token is stored only as a hash, so the browser cannot call the real webhook URL; instead an active
 * admin's payload takes the webhook's own first step (the same validation, rendering and sanitizing) and
 * the database says what a delivery like it would do, writing nothing (no post, revision, delivery record
 * or rebuild request: a test must not publish). The answer is 200
 * `{ dry_run: true, action: 'create' | 'update', title, slug, status, path, url, category, post_id? }`
 * (post_id: the post an update would overwrite; category as a delivery's answer says it), or the webhook's own
 * 422 `{ message: 'Invalid payload: title: Title is required', details }` for a payload a delivery would refuse.
 */
export default (req: Request): Promise<Response> =>
  adminEndpoint(req, WebhookTestRequestSchema, 'Webhook test', async ({ organization_id, payload: sent }) => {
    try {
      // Validated here rather than by the request's schema, so a test names every refused field as the webhook does.
      const payload = WebhookPayloadSchema.safeParse(sent);
      if (!payload.success) throw invalidPayload(payloadProblems(payload.error));
      const preview = await previewDelivery(serviceClient(), organization_id, payload.data);
      if (!preview) throw new HttpError(404, `No organization ${organization_id}`);
      return Response.json({ dry_run: true, ...preview });
    } catch (failure) {
      if (failure instanceof DeliveryProblem) {
        return Response.json(failure.details === undefined ? { message: failure.message } : { message: failure.message, details: failure.details }, { status: failure.status });
      }
      throw failure;
    }
  });

export const config: Config = { path: '/api/admin/webhook-test' };
