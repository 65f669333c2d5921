import { z } from './zod.ts';
import { imageUrlProblem } from './image-url.ts';

/**
 * Value formats shared by every schema. The same patterns are written into the SQL CHECK constraints
 * (supabase/migrations): tests/unit/schemas/sql-mirror.test.ts fails when the two drift apart.
 */

/** Lower-case words joined by single hyphens: `local-seo`, `scale-pro`. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A practical e-mail address check (what a form should accept, not the full RFC 5322 grammar). */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** An absolute http or https URL. */
export const HTTP_URL_PATTERN = /^https?:\/\/[^\s/?#]+[^\s]*$/;

/** Phone numbers as people type them: digits, spaces and + ( ) . - */
export const PHONE_PATTERN = /^[0-9+().\s-]{7,40}$/;

/** A URL slug, at most 200 characters. */
export const SlugSchema = z.string().max(200).regex(SLUG_PATTERN, 'Use lower-case letters, digits and single hyphens');

/** An e-mail address, trimmed and lower-cased (the database compares addresses case-insensitively). */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(EMAIL_PATTERN, 'Enter a valid email address');

/** An absolute http(s) URL of at most 2048 characters. */
export const HttpUrlSchema = z.string().trim().max(2048).regex(HTTP_URL_PATTERN, 'Enter a full URL starting with https://');

/** An image address the build may download (src/schemas/image-url.ts): public https, or a Media Library file. */
export const ImageUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, context) => {
    const problem = imageUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** A phone number. */
export const PhoneSchema = z.string().trim().regex(PHONE_PATTERN, 'Enter a valid phone number');

/**
 * Whether Postgres can store the text: no NUL character and no lone UTF-16 surrogate. JSON carries both
 * (`"\u0000"`, `"\ud800"`), and a text column refuses them with an error rather than a check's refusal.
 */
export function isStorableText(text: string): boolean {
  return !/[\0\p{Cs}]/u.test(text);
}

/** A string the database can store (isStorableText), refused otherwise with the reason. */
export function storableString() {
  return z.string().refine(isStorableText, 'must not contain a NUL character or a lone surrogate');
}

/** Turns an empty form field into "not given", so blank inputs are stored as absent rather than ''. */
export function blankAsUndefined<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());
}

