/**
 * The blog's categories and tags as the back office manages them (/admin/blog/categories). Everything runs
 * under the signed-in user's session: row-level security and the SQL functions decide (editors and admins of
 * the organization change, members read), and the database does the rest in the same transaction: posts of
 * a deleted category move to the default "Uncategorized", a renamed category's old slug becomes a redirect,
 * merges move posts, and every change writes its audit entry (migration 20261123005000).
 * Refusals reach the user as the messages below, never as the database's wording.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { countWords } from './count-words.ts';
import { slugify } from '../slug.ts';

/** A category with how many posts (any status) it holds. */
export interface TaxonomyCategory {
  id: string;
  name: string;
  slug: string;
  /** The organization's "Uncategorized": posts without a category land in it; it cannot be deleted. */
  is_default: boolean;
  post_count: number;
  /** How many of its posts are published (visitors see a category once it has one). */
  published_count: number;
  /**
   * Created by a writing-tool delivery from a name that matched no category: visitors are not offered it until
   * an editor approves it (approveCategory), renames it or merges it into another.
   */
  needs_review: boolean;
}

/** A tag of the organization, in the spelling first used, with how many posts carry it. */
export interface TaxonomyTag {
  id: string;
  name: string;
  post_count: number;
}

/** Limits the database enforces (blog_categories.name, public.is_valid_tag_list). */
export const CATEGORY_NAME_MAX = 80;
export const TAG_NAME_MAX = 50;

/** The messages a refused or failed change shows, word for word. */
export const TAXONOMY_MESSAGES = {
  categoryNameInvalid: `A category name needs a letter or digit and at most ${CATEGORY_NAME_MAX} characters.`,
  categorySlugTaken: 'Another category already has this name (or the same URL). Choose a different name.',
  defaultUndeletable: 'The default category cannot be deleted: posts without a category need it. Rename it instead.',
  defaultUnmergeable: 'The default category cannot be merged into another. Merge the other category into it instead.',
  mergeIntoItself: 'Choose another category to merge into.',
  tagNameInvalid: `A tag has 1 to ${TAG_NAME_MAX} characters.`,
  tagNotFound: 'This tag no longer exists. Reload the page.',
  categoryGone: 'This category no longer exists. Reload the page.',
  notAllowed: 'Only editors and admins of this organization can change categories and tags.',
  failed: 'The change could not be saved. Please try again.',
} as const;

/** A change the user must read about; `message` is one of TAXONOMY_MESSAGES. */
export class TaxonomyError extends Error {
  override name = 'TaxonomyError';
}

type DbError = { code?: string; message?: string } | null;

/** The user's message for a database refusal (the SQL functions prefix their refusals with a code word). */
export function taxonomyErrorMessage(error: NonNullable<DbError>): string {
  const message = error.message ?? '';
  if (message.startsWith('default_category:')) {
    return message.includes('merged') ? TAXONOMY_MESSAGES.defaultUnmergeable : TAXONOMY_MESSAGES.defaultUndeletable;
  }
  if (message.startsWith('invalid_tag:')) return TAXONOMY_MESSAGES.tagNameInvalid;
  if (message.startsWith('tag_not_found:')) return TAXONOMY_MESSAGES.tagNotFound;
  if (message.includes('cannot be merged into itself')) return TAXONOMY_MESSAGES.mergeIntoItself;
  if (error.code === '23505') return TAXONOMY_MESSAGES.categorySlugTaken;
  if (error.code === '23514') return TAXONOMY_MESSAGES.categoryNameInvalid;
  if (error.code === '42501') return TAXONOMY_MESSAGES.notAllowed;
  return TAXONOMY_MESSAGES.failed;
}

function fail(error: NonNullable<DbError>): never {
  throw new TaxonomyError(taxonomyErrorMessage(error));
}

/** The name and slug a category gets from what the user typed, or the refusal. */
export function categoryNameAndSlug(input: string): { name: string; slug: string } {
  const name = input.trim().replace(/\s+/g, ' ');
  const slug = slugify(name);
  if (!slug || name.length > CATEGORY_NAME_MAX) throw new TaxonomyError(TAXONOMY_MESSAGES.categoryNameInvalid);
  return { name, slug };
}

/** A tag name as typed, trimmed, or the refusal. */
export function tagName(input: string): string {
  const name = input.trim();
  if (name.length < 1 || name.length > TAG_NAME_MAX) throw new TaxonomyError(TAXONOMY_MESSAGES.tagNameInvalid);
  return name;
}

/** The organization's categories by name, the default first, with post counts. */
export async function listCategories(client: SupabaseClient, organizationId: string): Promise<TaxonomyCategory[]> {
  const { data, error } = await client
    .from('blog_category_counts')
    .select('id, name, slug, is_default, post_count, published_count, needs_review')
    .eq('organization_id', organizationId)
    .order('is_default', { ascending: false })
    .order('name');
  if (error) throw new TaxonomyError('The categories could not be loaded. Please try again.');
  return (data ?? []) as TaxonomyCategory[];
}

/** The organization's tags in use, most used first. */
export async function listTags(client: SupabaseClient, organizationId: string): Promise<TaxonomyTag[]> {
  const { data, error } = await client
    .from('blog_tag_counts')
    .select('id, name, post_count')
    .eq('organization_id', organizationId)
    .gt('post_count', 0)
    .order('post_count', { ascending: false })
    .order('name');
  if (error) throw new TaxonomyError('The tags could not be loaded. Please try again.');
  return (data ?? []) as TaxonomyTag[];
}

/** Creates a category (its slug from its name); returns it. */
export async function createCategory(client: SupabaseClient, organizationId: string, input: string): Promise<{ id: string; name: string }> {
  const { name, slug } = categoryNameAndSlug(input);
  const { data, error } = await client.from('blog_categories').insert({ organization_id: organizationId, name, slug }).select('id, name').single();
  if (error) fail(error);
  return data;
}

/** Renames a category; its slug follows the name and the old one becomes a redirect (by the database). */
export async function renameCategory(client: SupabaseClient, categoryId: string, input: string): Promise<{ name: string; slug: string }> {
  const { name, slug } = categoryNameAndSlug(input);
  const { data, error } = await client.from('blog_categories').update({ name, slug }).eq('id', categoryId).select('name, slug');
  if (error) fail(error);
  if (!data?.length) throw new TaxonomyError(TAXONOMY_MESSAGES.categoryGone);
  return { name, slug };
}

/**
 * Approves a category a delivery created: visitors are offered it from the next build on (the database
 * requests it when the category has published posts, and logs the approval). Editors and admins only (RLS).
 */
export async function approveCategory(client: SupabaseClient, categoryId: string): Promise<void> {
  const { data, error } = await client.from('blog_categories').update({ needs_review: false }).eq('id', categoryId).select('id');
  if (error) fail(error);
  if (!data?.length) throw new TaxonomyError(TAXONOMY_MESSAGES.categoryGone);
}

/**
 * What an approval tells the editor: when visitors will see the category. With published posts, the approval
 * has requested a rebuild and the category shows once it is live; without, once one of its posts is published.
 */
export function approvalMessage(category: Pick<TaxonomyCategory, 'name' | 'published_count'>): string {
  return category.published_count > 0
    ? `Category "${category.name}" approved: it shows on the site with its ${countWords(category.published_count, 'published post')} after the rebuild that starts now`
    : `Category "${category.name}" approved: visitors see it once one of its posts is published`;
}

/** Merges the source category into the target; returns how many posts moved. */
export async function mergeCategories(client: SupabaseClient, sourceId: string, targetId: string): Promise<number> {
  const { data, error } = await client.rpc('merge_categories', { p_source_id: sourceId, p_target_id: targetId });
  if (error) fail(error);
  return Number(data);
}

/** Deletes a category; the database moves its posts to the default category first. */
export async function deleteCategory(client: SupabaseClient, categoryId: string): Promise<void> {
  const { data, error } = await client.from('blog_categories').delete().eq('id', categoryId).select('id');
  if (error) fail(error);
  if (!data?.length) throw new TaxonomyError(TAXONOMY_MESSAGES.notAllowed);
}

/** Renames a tag across the organization's posts, or merges it into the tag `to` names; returns posts changed. */
export async function renameTag(client: SupabaseClient, organizationId: string, from: string, to: string): Promise<number> {
  const { data, error } = await client.rpc('rename_tag', { p_organization_id: organizationId, p_from: from, p_to: tagName(to) });
  if (error) fail(error);
  return Number(data);
}
