/**
 * Netlify's deploy notifications, the production source of the admin's site status.
 *
 * Netlify documents one way to trust such a call: an outgoing webhook ("Deploy notifications" → "HTTP POST
 * request") configured with a JWS secret token signs every notification. The `X-Webhook-Signature` header is
 * a JWT signed with HS256 by that secret, issued by `netlify`, whose `sha256` claim is the SHA-256 of the
 * body. Event-triggered functions (deploy-succeeded.mts and friends) come with no such documented proof, so
 * this module does not rely on them. A notification that cannot be verified changes nothing.
 *
 * Only production deploys count (deploy previews and branch deploys are not the live site), and the
 * organization is the one this site shows (SITE_ORG or its domain), never one named by the request. A
 * notification sent again later (captured and replayed) is refused once its deploy's time is more than an hour
 * old, and within the hour it changes nothing: a deploy's state only moves forward (record_site_deploy).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { jwtVerify } from 'jose';
import { z } from '../../schemas/zod.ts';
import { HttpError } from './http.ts';

/** The deploy fields the status needs; Netlify sends many more. */
export const DeployNotificationSchema = z.object({
  id: z.string().min(1).max(100),
  state: z.string().min(1).max(40),
  context: z.string().max(100).nullish(),
  created_at: z.iso.datetime({ offset: true }).nullish(),
  updated_at: z.iso.datetime({ offset: true }).nullish(),
  error_message: z.string().max(5000).nullish(),
  ssl_url: z.url().max(500).nullish(),
  url: z.url().max(500).nullish(),
});
export type DeployNotification = z.infer<typeof DeployNotificationSchema>;

/** What a notification means for site_deploys, or null for a state the status does not track. */
export type DeployEvent = { externalId: string; state: 'building' | 'succeeded' | 'failed'; startedAt: string | null; error: string | null; url: string | null };

const BUILDING_STATES = new Set(['enqueued', 'building', 'preparing', 'prepared', 'processing', 'processed', 'uploading', 'uploaded']);

/**
 * How old a notification may be: Netlify sends one as the deploy changes (its `updated_at`), so an older one is
 * a captured notification sent again. Netlify's signature carries no time, so the deploy's own time decides.
 */
export const DEPLOY_NOTIFICATION_MAX_AGE_MS = 60 * 60_000;

/** Throws 401 for a notification whose deploy last changed more than DEPLOY_NOTIFICATION_MAX_AGE_MS ago (or has no time). */
export function assertFresh(deploy: DeployNotification, now = Date.now()): void {
  const changed = Date.parse(deploy.updated_at ?? deploy.created_at ?? '');
  if (!Number.isFinite(changed) || now - changed > DEPLOY_NOTIFICATION_MAX_AGE_MS) {
    throw new HttpError(401, 'The notification is too old: a notification is accepted within an hour of the deploy\'s change.');
  }
}

/** Maps Netlify's deploy state to ours: building states, `ready` → succeeded, `error` → failed; else null. */
export function deployEvent(deploy: DeployNotification): DeployEvent | null {
  const state = deploy.state === 'ready' ? 'succeeded' : deploy.state === 'error' ? 'failed' : BUILDING_STATES.has(deploy.state) ? 'building' : null;
  if (!state || (deploy.context && deploy.context !== 'production')) return null;
  return {
    externalId: deploy.id,
    state,
    startedAt: deploy.created_at ?? null,
    error: state === 'failed' ? deploy.error_message?.trim() || 'Netlify reported the deploy as failed' : null,
    url: deploy.ssl_url ?? deploy.url ?? null,
  };
}

/**
 * Verifies the notification's signature against the body and the shared secret; throws 401 when it is
 * missing, forged, expired or for another body.
 */
export async function verifyDeployNotification(body: string, signature: string | null, secret: string): Promise<void> {
  if (!signature) throw new HttpError(401, 'The notification is not signed.');
  let claimed: unknown;
  try {
    const { payload } = await jwtVerify(signature, new TextEncoder().encode(secret), { issuer: 'netlify', algorithms: ['HS256'] });
    claimed = payload.sha256;
  } catch {
    throw new HttpError(401, 'The notification signature is not valid.');
  }
  const actual = createHash('sha256').update(body).digest();
  const expected = typeof claimed === 'string' && /^[0-9a-f]{64}$/i.test(claimed) ? Buffer.from(claimed, 'hex') : null;
  if (!expected || !timingSafeEqual(expected, actual)) throw new HttpError(401, 'The notification signature does not match its body.');
}
