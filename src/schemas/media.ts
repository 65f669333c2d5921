import { z } from './zod.ts';

/** Longest alt text (the media.alt_text check in supabase/migrations/20261123008000_media_library.sql). */
export const ALT_TEXT_MAX = 500;

/** Alt text as saved: trimmed, at most 500 characters; empty is allowed (the UI warns, the database keeps ''). */
export const AltTextSchema = z.string().trim().max(ALT_TEXT_MAX, `Alt text can be at most ${ALT_TEXT_MAX} characters`);

/** The most characters a caption may have (the media.caption check). */
export const CAPTION_MAX = 500;
export const CaptionSchema = z.string().trim().max(CAPTION_MAX, `A caption can be at most ${CAPTION_MAX} characters`);

/** A file name as the library records it: trimmed, 1 to 255 characters (the media.file_name check). */
export const MediaFileNameSchema = z.string().trim().min(1, 'The file has no name').max(255, 'The file name is longer than 255 characters');

/**
 * POST /api/admin/media: a file the caller just stored in the organization's folder, to be described by the
 * system (`<organization id>/<uuid>.<extension>`, the path the back office gives every upload).
 */
export const MediaRegistrationSchema = z
  .object({
    organization_id: z.uuid(),
    storage_path: z.string().regex(/^[0-9a-f-]{36}\/[0-9a-f-]{36}\.(jpg|png|webp|avif|gif)$/, 'Not a path of the Media Library'),
    file_name: MediaFileNameSchema,
  })
  .strict()
  .refine((body) => body.storage_path.startsWith(`${body.organization_id}/`), { path: ['storage_path'], message: "The file is not in the organization's folder" });
export type MediaRegistration = z.infer<typeof MediaRegistrationSchema>;
