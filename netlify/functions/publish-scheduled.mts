import type { Config } from '@netlify/functions';
import { sendBudgetAlerts } from '../../src/lib/server/budget-alerts.ts';
import { serverError } from '../../src/lib/server/http.ts';
import { retryDueSubmissions } from '../../src/lib/server/indexnow.ts';
import { describeBatch, flushDueRebuilds } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/**
 * Every minute: publishes the scheduled posts whose time has come (publish_due_posts; the posts' trigger
 * records each organization's rebuild request in the same transaction), then sends every rebuild that is due:
 * of organizations with no build in flight, and the retries of failures (see src/lib/server/rebuilds.ts), and
 * the IndexNow submissions due for another try (src/lib/server/indexnow.ts), and mails the hosting teams' admins
 * whose build budget just reached 80% or 95% (src/lib/server/budget-alerts.ts). Answers a summary, for logs and
 * tests.
 */
export default withBackend(async (_req: Request): Promise<Response> => {
  try {
    return await publishAndRebuild();
  } catch (error) {
    // The run fails visibly (500 in the function log) without handing Postgres' text to whoever called it.
    return serverError('publish-scheduled failed', error);
  }
});

async function publishAndRebuild(): Promise<Response> {
  const client = serviceClient();
  const { data: published, error } = await client.rpc('publish_due_posts');
  if (error) throw new Error(`publish-scheduled: publish_due_posts failed: ${error.message}`);
  const posts = published as { post_id: string; organization_id: string }[];

  if (posts.length > 0) console.log(`publish-scheduled: published ${posts.length} scheduled post(s)`);

  const flushed = await flushDueRebuilds(client);
  // Search engines' submissions that failed and are due again; a failure here holds nothing else up.
  const resubmitted = await retryDueSubmissions(client).catch((cause: Error) => {
    console.error(`publish-scheduled: IndexNow retries failed: ${cause.message}`);
    return 0;
  });
  const budgetMails = await sendBudgetAlerts(client).catch((cause: Error) => {
    console.error(`publish-scheduled: budget alerts failed: ${cause.message}`);
    return 0;
  });
  for (const batch of flushed) {
    console.log(`publish-scheduled: rebuild of ${describeBatch(batch)}`);
  }
  return Response.json({
    published: posts.map((post) => post.post_id),
    indexnow_retries: resubmitted,
    budget_mails: budgetMails,
    rebuilds: flushed.map(({ batch_id, organization_slug, request_count, outcome, error: batchError }) => ({
      batch_id, organization_slug, request_count, outcome, error: batchError,
    })),
  });
}

export const config: Config = { schedule: '* * * * *' };
