import type { Config } from '@netlify/functions';
import { assertFresh, deployEvent, DeployNotificationSchema, verifyDeployNotification } from '../../src/lib/server/deploy-events.ts';
import { HttpError, message, readText, serverError } from '../../src/lib/server/http.ts';
import { submitLiveChanges } from '../../src/lib/server/indexnow.ts';
import { describeBatch, flushDueRebuilds } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { siteOrganizationId } from '../../src/lib/server/site-organization.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/** A deploy notification is a few kilobytes; anything much larger is not one. */
const MAX_BODY_BYTES = 256_000;

/**
 * POST /api/deploy-events: Netlify's deploy notifications (started, succeeded, failed), configured as
 * outgoing webhooks signed with DEPLOY_NOTIFICATION_SECRET (see src/lib/server/deploy-events.ts). A verified
 * notification of a production deploy records the build of this site's organization (record_site_deploy);
 * the admin header shows it; a build's end sends the organization's next build if changes waited for it, and a
 * success tells search engines which pages it changed (IndexNow, src/lib/server/indexnow.ts).
 * 202 recorded or ignored (another context or state), 401 unverified or over an hour old (a replay), 400 not
 * a deploy, 503 when no secret is configured: in every refusal nothing is written.
 */
export default withBackend(async (req: Request): Promise<Response> => {
  try {
    const secret = process.env.DEPLOY_NOTIFICATION_SECRET;
    if (!secret) return message(503, 'Deploy notifications are not configured on this site.');
    const body = await readText(req, { maxBytes: MAX_BODY_BYTES });
    await verifyDeployNotification(body, req.headers.get('x-webhook-signature'), secret);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new HttpError(400, 'The notification body must be JSON.');
    }
    const parsed = DeployNotificationSchema.safeParse(json);
    if (!parsed.success) throw new HttpError(400, 'The notification is not a deploy.');
    assertFresh(parsed.data);
    const event = deployEvent(parsed.data);
    if (!event) return message(202, 'Ignored: not a production deploy state the status tracks.');
    const organizationId = await siteOrganizationId();
    if (!organizationId) return message(202, 'Ignored: this site shows no organization of the database.');
    const { data: deployId, error } = await serviceClient().rpc('record_site_deploy', {
      p_organization_id: organizationId,
      p_source: 'netlify',
      p_external_id: event.externalId,
      p_state: event.state,
      p_started_at: event.startedAt,
      p_error: event.error,
      p_url: event.url,
    });
    if (error) throw new Error(`record_site_deploy failed: ${error.message}`);
    if (event.state !== 'building') await sendNextBuild(organizationId);
    if (event.state === 'succeeded') await tellSearchEngines(organizationId, deployId as string);
    return message(202, `Recorded: deploy ${event.state}.`);
  } catch (error) {
    if (error instanceof HttpError) return message(error.status, error.message);
    return serverError('The deploy notification could not be recorded', error);
  }
});

/**
 * A build ended: what waited during it goes out now, as Netlify's queue would start its waiting build. A
 * failure here only delays that build to the scheduler's next tick, so it is logged, not answered.
 */
async function sendNextBuild(organizationId: string): Promise<void> {
  try {
    for (const batch of await flushDueRebuilds(serviceClient(), { organizationId })) console.log(`deploy-events: next build of ${describeBatch(batch)}`);
  } catch (error) {
    console.error(`deploy-events: the next build could not be sent (the scheduler sends it): ${(error as Error).message}`);
  }
}

/**
 * The deploy is live: search engines hear of the pages it changed (IndexNow). A failure is recorded with the
 * submission and retried by the scheduler, or only logged: it never fails the notification.
 */
async function tellSearchEngines(organizationId: string, deployId: string): Promise<void> {
  try {
    await submitLiveChanges(serviceClient(), organizationId, deployId);
  } catch (error) {
    console.error(`deploy-events: IndexNow submission failed: ${(error as Error).message}`);
  }
}

export const config: Config = { path: '/api/deploy-events', method: 'POST' };
