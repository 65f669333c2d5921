/**
 * What an image file is, read from its bytes (never from its name or declared type): the Media Library's
 * uploads and the writing tool's images both pass through here. Browser and server code alike (no Node APIs).
 *
 * The header check and the dimensions come from `image-size` (MIT, no dependencies, pure JavaScript): it
 * knows each format's signature (JPEG FF D8, PNG's 8-byte signature, GIF87a/89a, RIFF…WEBP, an ISO-BMFF
 * `ftyp` box with an AVIF brand) and where the size is stored. Only the five web formats below are accepted:
 * SVG (script inside) and the rest are refused.
 */
import { imageSize } from 'image-size';

/** The largest file the Media Library keeps; the storage bucket `media` has the same limit. */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;

/** The accepted formats: MIME type and the file extension stored objects get. */
export const IMAGE_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
} as const;
export type ImageMimeType = keyof typeof IMAGE_TYPES;

/** The formats as a user reads them, in messages and in the UI. */
export const IMAGE_FORMATS_TEXT = 'JPEG, PNG, WebP, AVIF or GIF';

const MIME_OF: Record<string, ImageMimeType> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif', gif: 'image/gif' };

/** An accepted image: its real type and its size in pixels. */
export interface ImageInfo {
  mimeType: ImageMimeType;
  extension: (typeof IMAGE_TYPES)[ImageMimeType];
  width: number;
  height: number;
}

/** The image's type and dimensions, or null when the bytes are not one of the accepted formats. */
export function inspectImage(bytes: Uint8Array): ImageInfo | null {
  try {
    const { type, width, height } = imageSize(bytes);
    const mimeType = type ? MIME_OF[type] : undefined;
    if (!mimeType || !width || !height) return null;
    return { mimeType, extension: IMAGE_TYPES[mimeType], width, height };
  } catch {
    return null;
  }
}

/** Why a file cannot go into the Media Library, or null when it can. */
export function imageProblem(name: string, bytes: Uint8Array): string | null {
  if (bytes.byteLength === 0) return `${name} is empty`;
  if (bytes.byteLength > MEDIA_MAX_BYTES) return `${name} is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB`;
  if (!inspectImage(bytes)) return `${name} is not an image (${IMAGE_FORMATS_TEXT})`;
  return null;
}

/** The SHA-256 of the bytes in hex: the same file is stored once per organization. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
