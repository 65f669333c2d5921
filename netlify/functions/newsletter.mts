import type { Config } from '@netlify/functions';
import { subscribeToNewsletter } from '../../src/lib/newsletter.ts';
import { NEWSLETTER_MAX_BYTES, NEWSLETTER_OUTCOMES, NewsletterSignupSchema, type NewsletterOutcome } from '../../src/schemas/newsletter.ts';
import { HttpError, message, readJson, readText, serverError } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

/** What the sign-up came to: the JSON answer's status and text, and the outcome page a plain form goes to. */
interface Answer {
  status: number;
  text: string;
  outcome: NewsletterOutcome;
}

const answer = (status: number, outcome: NewsletterOutcome, text: string = NEWSLETTER_OUTCOMES[outcome].message): Answer => ({ status, text, outcome });

/** The outcome whose message a validation error carries; the organization's errors are ours, not the visitor's. */
function outcomeOf(text: string): NewsletterOutcome {
  const found = Object.entries(NEWSLETTER_OUTCOMES).find(([, outcome]) => outcome.message === text);
  return (found?.[0] as NewsletterOutcome | undefined) ?? 'not-available';
}

async function signUp(body: unknown): Promise<Answer> {
  const signup = NewsletterSignupSchema.safeParse(body);
  if (!signup.success) {
    const text = signup.error.issues[0]?.message ?? 'Invalid sign-up.';
    return answer(400, outcomeOf(text), text);
  }
  switch (await subscribeToNewsletter(serviceClient(), signup.data)) {
    case 'subscribed':
      return answer(201, 'subscribed');
    case 'already-subscribed':
      return answer(200, 'already-subscribed');
    case 'unknown-organization':
      return answer(404, 'not-available', `No organization named "${signup.data.organization}".`);
  }
}

/**
 * POST /api/newsletter: subscribes an address to the organization's newsletter.
 * - JSON `{ email, organization }` (the form's script): `{ message }` with 201 new, 200 already subscribed (no
 *   second row), 400 invalid, 404 unknown organization, 413 too large, 500 with a generic message and a
 *   reference (the database's text only in the log).
 * - A plain form post (`application/x-www-form-urlencoded`, the same form before or without its script):
 *   303 to `/newsletter/<outcome>`, a page that says what happened, so the address never lands in a URL.
 */
export default async (req: Request) => {
  const plainForm = (req.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
  let result: Answer | Response;
  try {
    const body = plainForm
      ? Object.fromEntries(new URLSearchParams(await readText(req, { maxBytes: NEWSLETTER_MAX_BYTES })))
      : await readJson(req, { maxBytes: NEWSLETTER_MAX_BYTES });
    result = await signUp(body);
  } catch (error) {
    result = error instanceof HttpError ? answer(error.status, 'not-available', error.message) : serverError(NEWSLETTER_OUTCOMES['not-available'].message, error);
  }
  if (plainForm) {
    const outcome = result instanceof Response ? 'not-available' : result.outcome;
    return new Response(null, { status: 303, headers: { location: `/newsletter/${outcome}` } });
  }
  return result instanceof Response ? result : message(result.status, result.text);
};

export const config: Config = { path: '/api/newsletter', method: 'POST' };
