import { z } from './zod.ts';

/** Longest alt text (the media.alt_text check in supabase/migrations/20261123008000_media_library.sql). */
export const ALT_TEXT_MAX = 500;

/** Alt text as saved: trimmed, at most 500 characters; empty is allowed (the UI warns, the database keeps ''). */
export const AltTextSchema = z.string().trim().max(ALT_TEXT_MAX, `Alt text can be at most ${ALT_TEXT_MAX} characters`);

/** A file name as the library records it: trimmed, 1 to 255 characters (the media.file_name check). */
export const MediaFileNameSchema = z.string().trim().min(1, 'The file has no name').max(255, 'The file name is longer than 255 characters');
