/**
 * The deploy notifications the local build hook sends (build-hook.ts), as Netlify sends them to a site's
 * "HTTP POST request" deploy notifications: a JSON deploy (id, state, context, times, error message, address)
 * POSTed to the site's /api/deploy-events, signed with the shared secret the functions verify with
 * (DEPLOY_NOTIFICATION_SECRET): `X-Webhook-Signature` is a JWT (HS256, issuer `netlify`) whose `sha256` claim
 * is the SHA-256 of the body (src/lib/server/deploy-events.ts verifies it).
 */
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';

/** One deploy as the notification carries it: Netlify's field names, the ones the status reads. */
export type LocalDeploy = {
  id: string;
  /** `building`, then `ready` or `error` (Netlify's states). */
  state: 'building' | 'ready' | 'error';
  created_at: string;
  error_message: string | null;
  /** Why the build ran (the build hook's `trigger_title`). */
  title: string | null;
  url: string;
};

const NOTIFICATION_TIMEOUT_MS = 10_000;

/** The `X-Webhook-Signature` of `body`: a JWT signed with `secret`, issued by `netlify`, claiming the body's SHA-256. */
export function signDeployNotification(body: string, secret: string): Promise<string> {
  return new SignJWT({ sha256: createHash('sha256').update(body).digest('hex') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('netlify')
    .setIssuedAt()
    .sign(new TextEncoder().encode(secret));
}

/**
 * POSTs the deploy, signed, to `url` (the site's /api/deploy-events) as a production deploy changed now;
 * throws with the answer when the site does not accept it (2xx).
 */
export async function sendDeployNotification(url: string, secret: string, deploy: LocalDeploy): Promise<void> {
  const body = JSON.stringify({ ...deploy, context: 'production', branch: 'main', updated_at: new Date().toISOString() });
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-signature': await signDeployNotification(body, secret) },
    body,
    signal: AbortSignal.timeout(NOTIFICATION_TIMEOUT_MS),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 300)}`);
}
