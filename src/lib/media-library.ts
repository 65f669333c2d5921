/**
 * The Media Library's storage, one rule for everyone who stores or shows a library file: the back office's
 * uploads (signed in, under row-level security), the writing tool's images (the webhook, service client) and
 * the build (public addresses). A file lives in the public bucket `media` at `<organization id>/<uuid>.<ext>`
 * and never changes (a new image is a new path), so it is served with a year of caching; the same bytes are
 * stored once per organization (the SHA-256 is unique per organization), and a `public.media` row describes
 * each file (written by the system: src/lib/server/media-records.ts).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { type ImageInfo, type ImageMimeType, inspectImage, sha256Hex } from './image-file.ts';
import { publicSupabaseConfig } from './supabase-config.ts';

/** The storage bucket of the library. */
export const MEDIA_BUCKET = 'media';

/** Cache-Control max-age of a stored file, in seconds: a year (a stored file never changes). */
const MEDIA_CACHE_SECONDS = 31_536_000;

/** One file of the library as the back office and the functions read it. */
export interface MediaItem {
  id: string;
  organization_id: string;
  storage_path: string;
  file_name: string;
  mime_type: ImageMimeType;
  size_bytes: number;
  width: number | null;
  height: number | null;
  alt_text: string;
  /** Plain text, as WordPress's attachment caption; empty when none. */
  caption: string;
  created_at: string;
  updated_at: string;
}

/** The columns of a MediaItem. */
export const MEDIA_COLUMNS = 'id, organization_id, storage_path, file_name, mime_type, size_bytes, width, height, alt_text, caption, created_at, updated_at';

/** The public address of a library file (the bucket is public), on the backend the browser talks to unless told. */
export function mediaPublicUrl(storagePath: string, supabaseUrl: string = publicSupabaseConfig().url): string {
  return `${supabaseUrl.replace(/\/+$/, '')}/storage/v1/object/public/${MEDIA_BUCKET}/${storagePath.split('/').map(encodeURIComponent).join('/')}`;
}

/** The organization's file with these bytes (by SHA-256), or null; throws with the backend's message. */
export async function findMediaBySha(client: SupabaseClient, organizationId: string, sha256: string): Promise<MediaItem | null> {
  const { data, error } = await client.from('media').select(MEDIA_COLUMNS).eq('organization_id', organizationId).eq('sha256', sha256).maybeSingle();
  if (error) throw new Error(`looking up the library failed: ${error.message}`);
  return data as MediaItem | null;
}

/** An image stored in the bucket, not yet described by a row. */
export interface StoredFile {
  storagePath: string;
  info: ImageInfo;
  sha256: string;
}

/** Bytes that are not an image the library takes. */
export class NotAnImage extends Error {}

/**
 * Stores an image's bytes in the organization's library: the library's own copy when the same bytes are
 * there already (`existing`), else a new file of the detected type (`stored`, for the caller to describe with
 * a row). Throws NotAnImage for bytes that are no image, and an Error with the backend's message when the
 * lookup or the upload fails.
 */
export async function storeLibraryImage(
  client: SupabaseClient,
  organizationId: string,
  bytes: Uint8Array,
): Promise<{ existing: MediaItem } | { stored: StoredFile }> {
  const info = inspectImage(bytes);
  if (!info) throw new NotAnImage('it is not an image');
  const sha256 = await sha256Hex(bytes);
  const existing = await findMediaBySha(client, organizationId, sha256);
  if (existing) return { existing };
  const storagePath = `${organizationId}/${crypto.randomUUID()}.${info.extension}`;
  // A Blob of the detected type: supabase-js sends a Blob as a multipart part whose own type would otherwise
  // win over contentType.
  const body = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: info.mimeType });
  const upload = await client.storage
    .from(MEDIA_BUCKET)
    .upload(storagePath, body, { contentType: info.mimeType, cacheControl: String(MEDIA_CACHE_SECONDS), upsert: false });
  if (upload.error) throw new Error(`storing the image failed: ${upload.error.message}`);
  return { stored: { storagePath, info, sha256 } };
}
