/**
 * The signed-in user's author card (name, title, bio, website and photo), as the public post page shows it.
 * The photo is an image of the organization's Media Library: its public address is what the profile keeps
 * (`avatar_url`), and the build makes the AVIF/WebP variants from it; without one the page shows initials.
 * Row-level security lets users update only their own profile.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { z } from '../../schemas/zod.ts';
import { ProfileDetailsSchema } from '../../schemas/user.ts';

/** The author card's fields as the form edits them ('' for empty). */
export interface AuthorProfile {
  full_name: string;
  author_title: string;
  bio: string;
  author_website: string;
  avatar_url: string;
}

/** The form's schema: the profile rules without the phone (contact details are edited elsewhere). */
export const AuthorProfileSchema = ProfileDetailsSchema.omit({ phone: true });

const COLUMNS = 'full_name, author_title, bio, author_website, avatar_url';

/** The user's author card ('' for empty fields). */
export async function loadAuthorProfile(client: SupabaseClient, userId: string): Promise<AuthorProfile> {
  const { data, error } = await client.from('profiles').select(COLUMNS).eq('id', userId).single();
  if (error) throw new Error(`Reading the author card of ${userId} failed: ${error.message}`);
  const row = data as Record<keyof AuthorProfile, string | null>;
  return {
    full_name: row.full_name ?? '',
    author_title: row.author_title ?? '',
    bio: row.bio ?? '',
    author_website: row.author_website ?? '',
    avatar_url: row.avatar_url ?? '',
  };
}

/** Field problems of a form, by field, or null when it can be saved. */
export function authorProfileProblems(form: AuthorProfile): Partial<Record<keyof AuthorProfile, string>> | null {
  const parsed = AuthorProfileSchema.safeParse(form);
  if (parsed.success) return null;
  const problems: Partial<Record<keyof AuthorProfile, string>> = {};
  for (const issue of parsed.error.issues) problems[issue.path[0] as keyof AuthorProfile] ??= issue.message;
  return problems;
}

/** Saves the card (blank fields cleared) and answers it as stored. Throws on a refusal or a failure. */
export async function saveAuthorProfile(client: SupabaseClient, userId: string, form: AuthorProfile): Promise<AuthorProfile> {
  const details: z.infer<typeof AuthorProfileSchema> = AuthorProfileSchema.parse(form);
  const row = {
    full_name: details.full_name ?? null,
    author_title: details.author_title ?? null,
    bio: details.bio ?? null,
    author_website: details.author_website ?? null,
    avatar_url: details.avatar_url ?? null,
  };
  const { error } = await client.from('profiles').update(row).eq('id', userId).select('id').single();
  if (error) throw new Error(`Saving the author card of ${userId} failed: ${error.message}`);
  return loadAuthorProfile(client, userId);
}
