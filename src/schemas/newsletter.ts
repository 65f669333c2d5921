// zod/mini: the same validation as full zod at a fraction of the size (kept small for the function bundle).
import * as z from 'zod/mini';

/** Largest request body the newsletter endpoint reads. */
export const NEWSLETTER_MAX_BYTES = 10 * 1024;

/**
 * Every answer a sign-up can get: the message the form shows in place (with scripts) and the page the
 * visitor is sent to without them (`/newsletter/<outcome>`, src/pages/newsletter/[outcome].astro).
 */
export const NEWSLETTER_OUTCOMES = {
  subscribed: { title: 'You are subscribed', message: 'Thanks for subscribing!' },
  'already-subscribed': { title: 'You are already subscribed', message: "You're already subscribed." },
  'email-required': { title: 'Subscribing needs an address', message: 'Please enter your email address.' },
  'email-invalid': { title: 'That address does not look right', message: 'Please enter a valid email address.' },
  'email-too-long': { title: 'That address is too long', message: 'That email address is too long.' },
  'not-available': { title: 'Subscribing failed', message: 'Subscribing failed. Please try again later.' },
} as const;
export type NewsletterOutcome = keyof typeof NEWSLETTER_OUTCOMES;

/** Outcomes that did not subscribe anyone: their page offers the form again. */
export const newsletterFailed = (outcome: NewsletterOutcome) => outcome !== 'subscribed' && outcome !== 'already-subscribed';

const required = NEWSLETTER_OUTCOMES['email-required'].message;

/** A newsletter sign-up, as the footer form sends it and `POST /api/newsletter` validates it. */
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
  /** Slug of the organization whose site the form is on. */
  organization: z.string({ error: 'The organization is missing.' }).check(z.trim(), z.minLength(1, { error: 'The organization is missing.' })),
});
export type NewsletterSignup = z.infer<typeof NewsletterSignupSchema>;

/** The endpoint's answer: a message to show the visitor. */
export type NewsletterResponse = { message: string };
