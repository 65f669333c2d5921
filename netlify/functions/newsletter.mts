import type { Config } from '@netlify/functions';
import { HttpError, message, readJson, readText, serverError } from '../../src/lib/server/http.ts';
import { requestSubscription } from '../../src/lib/server/newsletter-opt-in.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { siteAddress } from '../../src/lib/server/site-address.ts';
import { siteOrganizationId } from '../../src/lib/server/site-organization.ts';
import { NEWSLETTER_MAX_BYTES, NEWSLETTER_OUTCOMES, NewsletterSignupSchema, type NewsletterOutcome } from '../../src/schemas/newsletter.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/** What the sign-up came to: the JSON answer's status and text, and the outcome page a plain form goes to. */
interface Answer {
  status: number;
  text: string;
  outcome: NewsletterOutcome;
}

const answer = (status: number, outcome: NewsletterOutcome, text: string = NEWSLETTER_OUTCOMES[outcome].message): Answer => ({ status, text, outcome });

/** The outcome whose message a validation error carries. */
function outcomeOf(text: string): NewsletterOutcome {
  const found = Object.entries(NEWSLETTER_OUTCOMES).find(([, outcome]) => outcome.message === text);
  return (found?.[0] as NewsletterOutcome | undefined) ?? 'email-invalid';
}

async function signUp(body: unknown, dryRun: boolean): Promise<Answer> {
  const signup = NewsletterSignupSchema.safeParse(body);
  if (!signup.success) {
    const text = signup.error.issues[0]?.message ?? NEWSLETTER_OUTCOMES['email-invalid'].message;
    return answer(400, outcomeOf(text), text);
  }
  const client = serviceClient();
  const organizationId = await siteOrganizationId();
  const { data: organization } = organizationId
    ? await client.from('organizations').select('id, name, slug, domain, domain_confirmed').eq('id', organizationId).maybeSingle()
    : { data: null };
  if (!organization) return answer(503, 'not-available');
  if (dryRun) return answer(200, 'check-inbox', `Dry run: a sign-up for ${organization.name}'s newsletter would be accepted and a confirmation mail sent. Nothing was saved or sent.`);
  // The mail's links lead to the organization's own address, never to the host the request named.
  await requestSubscription(client, organization, signup.data.email, siteAddress(organization));
  return answer(200, 'check-inbox');
}

/**
 * POST /api/newsletter: a sign-up for this site's organization's newsletter (double opt-in,
 * src/lib/server/newsletter-opt-in.ts). Every valid address gets the same answer, 200 "check your inbox", whether it
 * was new, pending, confirmed or rate-limited: the answer tells nobody who is on the list.
 * - JSON `{ email }` (the form's script; an `organization` in the body is ignored): `{ message }`; 400
 *   invalid, 413 too large, 503 when the site has no organization, 500 with a generic message and a reference.
 * - A plain form post (`application/x-www-form-urlencoded`, the same form before or without its script):
 *   303 to `/newsletter/<outcome>`, so the address never lands in a URL.
 * - `?dry_run=1` with JSON (`npm run site:check`): the same validation and reads of the site's organization,
 *   then 200 saying what a sign-up would do; nothing is stored and no mail is sent.
 */
export default withBackend(async (req: Request) => {
  const plainForm = (req.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
  let result: Answer | Response;
  try {
    const body = plainForm
      ? Object.fromEntries(new URLSearchParams(await readText(req, { maxBytes: NEWSLETTER_MAX_BYTES })))
      : await readJson(req, { maxBytes: NEWSLETTER_MAX_BYTES });
    // A dry run (site:check's probe) goes through the same checks and reads, and writes and sends nothing.
    result = await signUp(body, !plainForm && new URL(req.url).searchParams.get('dry_run') === '1');
  } catch (error) {
    result = error instanceof HttpError ? answer(error.status, 'not-available', error.message) : serverError(NEWSLETTER_OUTCOMES['not-available'].message, error);
  }
  if (plainForm) {
    const outcome = result instanceof Response ? 'not-available' : result.outcome;
    return new Response(null, { status: 303, headers: { location: `/newsletter/${outcome}` } });
  }
  return result instanceof Response ? result : message(result.status, result.text);
});

export const config: Config = { path: '/api/newsletter', method: 'POST' };
