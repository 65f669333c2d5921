/**
 * The Media Library as the back office uses it: an organization's images in the storage bucket `media`
 * (`<organization id>/<uuid>.<ext>`) with one `public.media` row each. Everything runs under the signed-in
 * user's session: RLS on storage.objects and on media lets editors and admins upload, describe and delete
 * and members read; the rows themselves are written by the system (POST /api/admin/media reads the stored
 * file), and the database logs uploads and deletions and clears the featured images that pointed at a
 * deleted file.
 *
 * An upload, as steps:
 *   1. check the file: at most 5 MB, an image by its content (image-file.ts, the rule the writing tool's
 *      images pass too), which also gives its type and width and height;
 *   2. hash it (SHA-256): the same image already in the library is reused, not stored twice;
 *   3. store the file with the detected type;
 *   4. have the function describe it (it checks the bytes again and answers the row, or the library's copy
 *      when the same image arrived meanwhile); if that fails, the stored file is removed, no orphan stays.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { countWords } from './count-words.ts';
import { answerMessage, type FunctionAnswer, postAdminFunction } from './functions.ts';
import { ilikePattern } from '../ilike-pattern.ts';
import { AltTextSchema, CaptionSchema, MediaFileNameSchema } from '../../schemas/media.ts';
import { z } from '../../schemas/zod.ts';
import { IMAGE_FORMATS_TEXT, IMAGE_TYPES, type ImageInfo, imageProblem, inspectImage, MEDIA_MAX_BYTES } from '../image-file.ts';
import { MEDIA_BUCKET, MEDIA_COLUMNS, type MediaItem, storeLibraryImage } from '../media-library.ts';

export { ALT_TEXT_MAX, CAPTION_MAX } from '../../schemas/media.ts';
export { MEDIA_MAX_BYTES } from '../image-file.ts';

/** The function that adds an uploaded file to the library (netlify/functions/admin-media.mts). */
export const MEDIA_FUNCTION_PATH = '/api/admin/media';

/** The file picker's accept attribute (a hint only: the content is checked). */
export const MEDIA_ACCEPT = Object.keys(IMAGE_TYPES).join(',');

/** What the UI states about the files it takes. */
export const MEDIA_LIMIT_TEXT = `${IMAGE_FORMATS_TEXT}, up to ${MEDIA_MAX_BYTES / 1024 / 1024} MB each`;

/** Most files one library listing shows (newest first); search narrows beyond that. */
export const MEDIA_LIST_LIMIT = 500;

/** A post that uses a file: as its featured image, or (asked for one file) in its body. */
export interface MediaUse {
  media_id: string;
  post_id: string;
  post_title: string;
  post_status: string;
  in_content: boolean;
}

/** An upload or change refused, with the message to show. */
export class MediaError extends Error {}

/** A size as people read it: "512 B", "34 KB", "1.5 MB". */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${Math.round(size / 1024)} KB`;
  const mb = size / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, '') : Math.round(mb)} MB`;
}

/**
 * Step 1: what the file is (type and size in pixels), or a MediaError with the message to show ("photo.txt
 * is not an image (JPEG, PNG, WebP, AVIF or GIF)", "big.jpg is larger than 5 MB"), and its bytes.
 */
export async function checkMediaFile(file: Blob & { name: string }): Promise<{ info: ImageInfo; bytes: Uint8Array }> {
  const name = file.name || 'The file';
  // The size first: a 2 GB video is refused without being read.
  if (file.size > MEDIA_MAX_BYTES) throw new MediaError(`${name} is larger than ${formatBytes(MEDIA_MAX_BYTES)}`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const problem = imageProblem(name, bytes);
  const info = problem ? null : inspectImage(bytes);
  if (!info) throw new MediaError(problem ?? `${name} is not an image (${IMAGE_FORMATS_TEXT})`);
  return { info, bytes };
}

/** Where an upload is: shown per file in a batch. */
export type UploadStage = 'checking' | 'uploading' | 'saving';

/** A finished upload: the library's row, and whether the same image was already there. */
export interface UploadOutcome {
  media: MediaItem;
  reused: boolean;
}

/** Uploads one file to the organization's library (the steps above); refusals throw MediaError. */
export async function uploadMedia(
  client: SupabaseClient,
  organizationId: string,
  file: File,
  onStage: (stage: UploadStage) => void = () => undefined,
  fetchImpl?: typeof fetch,
): Promise<UploadOutcome> {
  onStage('checking');
  const { bytes } = await checkMediaFile(file);
  const fileName = MediaFileNameSchema.safeParse(file.name);
  if (!fileName.success) throw new MediaError(fileName.error.issues[0]!.message);
  onStage('uploading');
  let path: string;
  try {
    const stored = await storeLibraryImage(client, organizationId, bytes);
    if ('existing' in stored) return { media: stored.existing, reused: true };
    path = stored.stored.storagePath;
  } catch (error) {
    throw new MediaError(`${file.name} could not be uploaded: ${(error as Error).message}`);
  }

  onStage('saving');
  // The row is the system's (type, dimensions and hash read from the stored bytes): the function writes it.
  let answer: FunctionAnswer;
  try {
    answer = await postAdminFunction(client, MEDIA_FUNCTION_PATH, { organization_id: organizationId, storage_path: path, file_name: fileName.data }, fetchImpl);
  } catch {
    answer = { ok: false, status: 0, body: null, text: '' };
  }
  if (answer.ok) return answer.body as UploadOutcome;
  // A file the function refused is already gone; one it never saw is removed here (no row describes it).
  await client.storage.from(MEDIA_BUCKET).remove([path]);
  const reason = answer.status === 0 || answer.status >= 500 ? 'the server could not take it. Try again' : answerMessage(answer);
  throw new MediaError(`${file.name} could not be added to the library: ${reason}`);
}

/** The organization's files, newest first; `search` matches the file name or the alt text. */
export async function listMedia(client: SupabaseClient, organizationId: string, search = ''): Promise<MediaItem[]> {
  let query = client.from('media').select(MEDIA_COLUMNS).eq('organization_id', organizationId);
  const term = search.trim();
  if (term) {
    const pattern = ilikePattern(term);
    query = query.or(`file_name.ilike.${pattern},alt_text.ilike.${pattern}`);
  }
  const { data, error } = await query.order('created_at', { ascending: false }).order('id').limit(MEDIA_LIST_LIMIT);
  if (error) throw new Error(`Loading the Media Library failed: ${error.message}`);
  return (data ?? []) as MediaItem[];
}

/** Saves a file's alt text and caption (each trimmed, at most 500 characters) and returns the updated row. */
export async function describeMedia(client: SupabaseClient, media: Pick<MediaItem, 'id'>, text: { altText: string; caption: string }): Promise<MediaItem> {
  const parsed = z.object({ alt_text: AltTextSchema, caption: CaptionSchema }).safeParse({ alt_text: text.altText, caption: text.caption });
  if (!parsed.success) throw new MediaError(parsed.error.issues[0]!.message);
  const { data, error } = await client.from('media').update(parsed.data).eq('id', media.id).select(MEDIA_COLUMNS).maybeSingle();
  if (error) throw new MediaError(`Saving the image's details failed: ${error.message}`);
  if (!data) throw new MediaError('You do not have permission to change this file.');
  return data as MediaItem;
}

/**
 * Deletes a file: the row first (RLS decides; the database logs it and clears featured images using it),
 * then the stored object. A refused delete removes nothing and says so.
 */
export async function deleteMedia(client: SupabaseClient, media: Pick<MediaItem, 'id' | 'storage_path' | 'file_name'>): Promise<void> {
  const { data, error } = await client.from('media').delete().eq('id', media.id).select('id');
  if (error) throw new MediaError(`Deleting ${media.file_name} failed: ${error.message}`);
  if (!data || data.length === 0) throw new MediaError(`${media.file_name} was not deleted: it does not exist or you may not delete it`);
  const removed = await client.storage.from(MEDIA_BUCKET).remove([media.storage_path]);
  if (removed.error) throw new MediaError(`${media.file_name} left the library, but its stored file could not be removed: ${removed.error.message}`);
}

/** The posts using the organization's files (featured images), or, for one file, also those linking it in their body. */
export async function mediaUsage(client: SupabaseClient, organizationId: string, mediaId?: string): Promise<MediaUse[]> {
  const { data, error } = await client.rpc('media_usage', { p_organization_id: organizationId, p_media_id: mediaId ?? null });
  if (error) throw new Error(`Loading where the files are used failed: ${error.message}`);
  return (data ?? []) as MediaUse[];
}

/** Usage rows grouped by file. */
export function usageByMedia(uses: readonly MediaUse[]): Map<string, MediaUse[]> {
  const byMedia = new Map<string, MediaUse[]>();
  for (const use of uses) byMedia.set(use.media_id, [...(byMedia.get(use.media_id) ?? []), use]);
  return byMedia;
}

/**
 * What saving a file's alt text or caption will change, said before it is saved: the details are the file's, so
 * every post that shows it (as its featured image or in its text) shows the new ones. Null when no post uses it.
 */
export function sharedDetailsNote(uses: readonly MediaUse[]): string | null {
  const posts = new Set(uses.map((use) => use.post_id)).size;
  if (posts === 0) return null;
  return posts === 1
    ? 'Saving changes the alt text and caption in the post that uses this image too.'
    : `Saving changes the alt text and caption in the ${countWords(posts, 'post')} that use this image.`;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A Media Library file as an image in a post's text: an `<img>` with its alt text, its size (so the page keeps its
 * place while it loads) and lazy loading, in HTML and in Markdown alike (Markdown keeps HTML as written).
 */
export function inlineImageTag(media: Pick<MediaItem, 'alt_text' | 'width' | 'height'>, url: string): string {
  const size = media.width && media.height ? ` width="${media.width}" height="${media.height}"` : '';
  return `<img src="${attribute(url)}" alt="${attribute(media.alt_text.trim())}"${size} loading="lazy">`;
}

/**
 * The text with `block` put in place of the selection [start, end), as a paragraph of its own (blank lines
 * around it, none doubled), and where the caret goes after it.
 */
export function insertBlock(text: string, start: number, end: number, block: string): { text: string; caret: number } {
  const before = text.slice(0, start).replace(/\s+$/, '');
  const after = text.slice(end).replace(/^\s+/, '');
  const head = before ? `${before}\n\n${block}` : block;
  return { text: after ? `${head}\n\n${after}` : `${head}\n`, caret: head.length };
}

/** "1200 × 800", or null when the size is unknown. */
export function formatDimensions(media: Pick<MediaItem, 'width' | 'height'>): string | null {
  return media.width && media.height ? `${media.width} × ${media.height}` : null;
}

/** A file's upload date as the library shows it ("Nov 23, 2026"). */
export function formatMediaDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
