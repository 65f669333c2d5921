import type { Config } from '@netlify/functions';
import { WebhookTestRequestSchema } from '../../src/schemas/webhook.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { HttpError } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { DeliveryProblem, receiveDelivery } from '../../src/lib/server/webhook-delivery.ts';

/**
 * POST /api/admin/webhook-test `{ organization_id, payload }`: the ZimmWriter tab's test form. The token is
 * stored only as a hash, so the browser cannot call the real webhook URL; instead an active admin's payload
 * goes through the webhook's own delivery path (same sanitizing, upsert, delivery log and rebuild) and the
 * answer is the webhook's: `{ post_id, status, url }` (201 new, 200 updated), or `{ message, details? }`
 * for a refused payload. A post the database could not store is a 500 with a generic message and the
 * reference its delivery record shows (adminEndpoint).
 */
export default (req: Request): Promise<Response> =>
  adminEndpoint(req, WebhookTestRequestSchema, 'Webhook test', async ({ organization_id, payload }) => {
    try {
      const post = await receiveDelivery(serviceClient(), { organizationId: organization_id }, { payload });
      if (!post) throw new HttpError(404, `No organization ${organization_id}`);
      return Response.json({ post_id: post.post_id, status: post.status, url: post.url }, { status: post.created ? 201 : 200 });
    } catch (failure) {
      if (failure instanceof DeliveryProblem) {
        return Response.json(failure.details === undefined ? { message: failure.message } : { message: failure.message, details: failure.details }, { status: failure.status });
      }
      throw failure;
    }
  });

export const config: Config = { path: '/api/admin/webhook-test' };
