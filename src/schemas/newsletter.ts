// zod/mini: the same validation as full zod at a fraction of the size (kept small for the function bundle).
import * as z from 'zod/mini';

/** Largest request body the newsletter endpoint reads. */
export const NEWSLETTER_MAX_BYTES = 10 * 1024;

const required = 'Please enter your email address.';

/** A newsletter sign-up, as the footer form sends it and `POST /api/newsletter` validates it. */
export const NewsletterSignupSchema = z.object({
  /** The subscriber's address, trimmed and lowercased (the table is unique on the lowercased address). */
  email: z.pipe(
    z.string({ error: required }).check(z.trim(), z.toLowerCase(), z.minLength(1, { error: required }), z.maxLength(254, { error: 'That email address is too long.' })),
    z.email({ error: 'Please enter a valid email address.' }),
  ),
  /** Slug of the organization whose site the form is on. */
  organization: z.string({ error: 'The organization is missing.' }).check(z.trim(), z.minLength(1, { error: 'The organization is missing.' })),
});
export type NewsletterSignup = z.infer<typeof NewsletterSignupSchema>;

/** The endpoint's answer: a message to show the visitor. */
export type NewsletterResponse = { message: string };
