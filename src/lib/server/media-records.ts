/**
 * The Media Library's rows, written by the system only (migration 20261125000100_media_written_by_system.sql):
 * a row describes a file already in the bucket, with the type, dimensions and SHA-256 read from the file's
 * own bytes (Postgres copies size and type from the stored object's metadata as well). Members never insert
 * rows; the back office's uploads (POST /api/admin/media) and the writing tool's images both end here, so
 * the hash that deduplicates images is always the file's. Uses the service client.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { type ImageInfo } from '../image-file.ts';
import { findMediaBySha, MEDIA_BUCKET, MEDIA_COLUMNS, type MediaItem } from '../media-library.ts';
import { InternalError } from './http.ts';

/** A stored file as the library describes it. */
export interface StoredImage {
  organizationId: string;
  storagePath: string;
  info: ImageInfo;
  sha256: string;
  fileName: string;
  altText: string;
  source: 'upload' | 'webhook';
  /** The person who uploaded it (null for the writing tool). */
  createdBy: string | null;
}

/**
 * Adds the row of a file just stored at `storagePath`. When the same image was stored meanwhile (the hash is
 * unique per organization), the existing row is answered (`reused`) and the new file removed; when the row
 * cannot be written, the file is removed too, so no file lingers that nothing describes.
 */
export async function recordStoredImage(client: SupabaseClient, image: StoredImage): Promise<{ media: MediaItem; reused: boolean }> {
  const { data, error } = await client
    .from('media')
    .insert({
      organization_id: image.organizationId,
      storage_path: image.storagePath,
      file_name: image.fileName,
      width: image.info.width,
      height: image.info.height,
      alt_text: image.altText.slice(0, 500),
      sha256: image.sha256,
      source: image.source,
      created_by: image.createdBy,
    })
    .select(MEDIA_COLUMNS)
    .single();
  if (!error) return { media: data as MediaItem, reused: false };
  if (error.code === '23505') {
    // The same bytes got a row meanwhile: from another upload (this file is then surplus), or from a
    // concurrent registration of this very file (which must stay).
    const raced = await findMediaBySha(client, image.organizationId, image.sha256);
    if (raced && raced.storage_path !== image.storagePath) await removeStoredFile(client, image.storagePath);
    if (raced) return { media: raced, reused: true };
  } else {
    await removeStoredFile(client, image.storagePath);
  }
  throw new InternalError(`recording the image failed: ${error.message}`);
}

/** Removes a file that no row describes (a refused or duplicate upload). */
export async function removeStoredFile(client: SupabaseClient, storagePath: string): Promise<void> {
  const { error } = await client.storage.from(MEDIA_BUCKET).remove([storagePath]);
  if (error) console.error(`Removing ${storagePath} from the media bucket failed: ${error.message}`);
}
