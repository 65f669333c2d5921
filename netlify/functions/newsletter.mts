import type { Config } from '@netlify/functions';
import { subscribeToNewsletter } from '../../src/lib/newsletter.ts';
import { NEWSLETTER_MAX_BYTES, NewsletterSignupSchema } from '../../src/schemas/newsletter.ts';
import { HttpError, message, readJson, serverError } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

/**
 * POST /api/newsletter `{ email, organization }`: subscribes an address to the organization's newsletter.
 * 201 new, 200 already subscribed (no second row), 400 invalid, 404 unknown organization, 413 too large,
 * 500 with a generic message and a reference (the database's text only in the log).
 */
export default async (req: Request) => {
  try {
    const body = await readJson(req, { maxBytes: NEWSLETTER_MAX_BYTES });
    const signup = NewsletterSignupSchema.safeParse(body);
    if (!signup.success) return message(400, signup.error.issues[0]?.message ?? 'Invalid sign-up.');
    switch (await subscribeToNewsletter(serviceClient(), signup.data)) {
      case 'subscribed':
        return message(201, 'Thanks for subscribing!');
      case 'already-subscribed':
        return message(200, "You're already subscribed.");
      case 'unknown-organization':
        return message(404, `No organization named "${signup.data.organization}".`);
    }
  } catch (error) {
    if (error instanceof HttpError) return message(error.status, error.message);
    return serverError('Subscribing failed. Please try again later.', error);
  }
};

export const config: Config = { path: '/api/newsletter', method: 'POST' };
