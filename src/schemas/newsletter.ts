import { z } from 'zod';

/** Largest request body the newsletter endpoint reads. */
export const NEWSLETTER_MAX_BYTES = 10 * 1024;

/** A newsletter sign-up, as the footer form sends it and `POST /api/newsletter` validates it. */
export const NewsletterSignupSchema = z.object({
  /** The subscriber's address; stored lowercased. */
  email: z
    .string({ error: 'Please enter your email address.' })
    .trim()
    .min(1, { error: 'Please enter your email address.' })
    .max(254, { error: 'That email address is too long.' })
    .pipe(z.email({ error: 'Please enter a valid email address.' }))
    .transform((email) => email.toLowerCase()),
  /** Slug of the organization whose site the form is on. */
  organization: z.string({ error: 'The organization is missing.' }).trim().min(1, { error: 'The organization is missing.' }),
});
export type NewsletterSignup = z.infer<typeof NewsletterSignupSchema>;

/** The endpoint's answer: a message to show the visitor. */
export type NewsletterResponse = { message: string };
