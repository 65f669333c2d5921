import { z } from './zod.ts';

/**
 * The image types the Media Library accepts, with the extension a stored file gets. The same list as the
 * bucket's allowed_mime_types and the media.mime_type check (supabase/migrations/20261123008000_media_library.sql).
 */
export const MEDIA_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
} as const;
export type MediaType = keyof typeof MEDIA_TYPES;

/** The largest file the library takes: the bucket's file_size_limit (5 MB). */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;

/** Longest alt text (the media.alt_text check). */
export const ALT_TEXT_MAX = 500;

/** Alt text as saved: trimmed, at most 500 characters; empty is allowed (the UI warns, the database keeps ''). */
export const AltTextSchema = z.string().trim().max(ALT_TEXT_MAX, `Alt text can be at most ${ALT_TEXT_MAX} characters`);

/** A file name as the library records it: trimmed, 1 to 255 characters (the media.file_name check). */
export const MediaFileNameSchema = z.string().trim().min(1, 'The file has no name').max(255, 'The file name is longer than 255 characters');
