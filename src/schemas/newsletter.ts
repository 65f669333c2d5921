// zod/mini: the same validation as full zod at a fraction of the size (kept small for the function bundle).
import * as z from 'zod/mini';

/** Largest request body the newsletter endpoint reads. */
export const NEWSLETTER_MAX_BYTES = 10 * 1024;

/**
 * Every answer a sign-up or a mail's link can get: the message the form shows in place (with scripts) and the
 * page the visitor is sent to without them, or after a link (`/newsletter/<outcome>`, src/pages/newsletter/[outcome].astro).
 */
export const NEWSLETTER_OUTCOMES = {
  'check-inbox': {
    title: 'Check your inbox',
    message: 'Almost done: we sent a link to that address. Open it to confirm your subscription.',
  },
  confirmed: { title: 'You are subscribed', message: 'Thanks! Your subscription is confirmed.' },
  unsubscribed: { title: 'You are unsubscribed', message: 'You will not receive the newsletter any more.' },
  'link-invalid': {
    title: 'That link no longer works',
    message: 'The link is used, expired or incomplete. Sign up again to get a new one.',
  },
  'email-required': { title: 'Subscribing needs an address', message: 'Please enter your email address.' },
  'email-invalid': { title: 'That address does not look right', message: 'Please enter a valid email address.' },
  'email-too-long': { title: 'That address is too long', message: 'That email address is too long.' },
  'not-available': { title: 'Subscribing failed', message: 'Subscribing failed. Please try again later.' },
} as const;
export type NewsletterOutcome = keyof typeof NEWSLETTER_OUTCOMES;

/** Outcomes that did not do what the visitor came for: their page offers the form again. */
export const newsletterFailed = (outcome: NewsletterOutcome) => !['check-inbox', 'confirmed', 'unsubscribed'].includes(outcome);

const required = NEWSLETTER_OUTCOMES['email-required'].message;

/**
 * A newsletter sign-up, as the footer form sends it and `POST /api/newsletter` validates it. Only the address:
 * whose list it joins is the site's own organization, never something the request names (other keys are dropped).
 */
export const NewsletterSignupSchema = z.object({
  /** The subscriber's address, trimmed and lowercased (the table is unique on the lowercased address). */
  email: z.pipe(
    z.string({ error: required }).check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, { error: required }),
      z.maxLength(254, { error: NEWSLETTER_OUTCOMES['email-too-long'].message }),
    ),
    z.email({ error: NEWSLETTER_OUTCOMES['email-invalid'].message }),
  ),
});
export type NewsletterSignup = z.infer<typeof NewsletterSignupSchema>;

/** The endpoint's answer: a message to show the visitor. */
export type NewsletterResponse = { message: string };

/** A mail link's form post (or RFC 8058 one-click post): the token, from the body or the link's query. */
export const NewsletterLinkSchema = z.object({
  token: z.string({ error: 'The link is incomplete.' }).check(z.regex(/^[A-Za-z0-9_-]{43}$/, { error: 'The link is incomplete.' })),
});
