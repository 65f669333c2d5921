/**
 * The writing tool's featured image, kept in the organization's Media Library so the site never hotlinks
 * the tool's WordPress:
 * - `image_base64` (the image the tool generated; a bare base64 string or a `data:` URL) is decoded;
 * - else `image_url` is fetched once, from public hosts only, through the guard the build's downloads use
 *   too (public-fetch.ts: http(s), every address the name resolves to public and the one connected to, at
 *   most 3 redirects, 10 seconds for the whole download and MEDIA_MAX_BYTES);
 * then checked by its bytes (image-file.ts: JPEG, PNG, WebP, AVIF or GIF) and stored once per organization
 * (the SHA-256 is unique per organization, so a redelivery reuses the stored file).
 *
 * A bad or unreachable image never costs the post: `deliveryImage` answers a note for the delivery log
 * instead, and the post is saved without a featured image. A good image that we fail to save (Storage or the
 * database failing) fails the whole delivery instead, with 503: nothing is stored and the tool retries.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { IMAGE_FORMATS_TEXT, inspectImage, MEDIA_MAX_BYTES } from '../image-file.ts';
import { NotAnImage, storeLibraryImage } from '../media-library.ts';
import { recordStoredImage } from './media-records.ts';
import { FetchRefused, fetchPublic, type FetchLimits, type FetchPolicy, PUBLIC_ONLY } from '../public-fetch.ts';
import { markBackendUnavailable } from './backend.ts';

const MAX_MB = MEDIA_MAX_BYTES / 1024 / 1024;

/** How `image_url` is downloaded (through the public-only guard). */
const IMAGE_URL_LIMITS: FetchLimits = {
  protocols: ['http:', 'https:'],
  maxBytes: MEDIA_MAX_BYTES,
  timeoutMs: 10_000,
  maxRedirects: 3,
  accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif',
  userAgent: 'scale-pro-site media import',
};

/** Why an image could not be taken; its message goes to the delivery log. */
export class ImageProblem extends Error {}

/** The image's bytes from `image_base64`; throws ImageProblem when it is not base64 of an accepted image. */
export function decodeImageBase64(value: string): Uint8Array {
  const data = value.trim().replace(/^data:[\w.+/-]*(;[\w=.-]+)*;base64,/i, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data) || data.length === 0) throw new ImageProblem('it is not base64');
  if ((data.length * 3) / 4 > MEDIA_MAX_BYTES + 3) throw new ImageProblem(`it is larger than ${MAX_MB} MB`);
  return checked(new Uint8Array(Buffer.from(data, data.includes('-') || data.includes('_') ? 'base64url' : 'base64')));
}

/** The bytes when they are an accepted image of at most MEDIA_MAX_BYTES; else ImageProblem. */
function checked(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength > MEDIA_MAX_BYTES) throw new ImageProblem(`it is larger than ${MAX_MB} MB`);
  if (!inspectImage(bytes)) throw new ImageProblem(`it is not an image (${IMAGE_FORMATS_TEXT})`);
  return bytes;
}

/** The image at `url`, fetched under the policy; throws ImageProblem for anything refused or failed. */
export async function fetchImage(url: string, policy: FetchPolicy = PUBLIC_ONLY): Promise<Uint8Array> {
  try {
    return checked(await fetchPublic(url, IMAGE_URL_LIMITS, policy));
  } catch (error) {
    throw error instanceof FetchRefused ? new ImageProblem(error.message) : error;
  }
}

/** What to call the stored file: the URL's file name, else the post's slug, with the real extension. */
export function mediaFileName(bytes: Uint8Array, fallbackBase: string, url?: string): string {
  const info = inspectImage(bytes);
  const fromUrl = url ? decodeURIComponent(new URL(url).pathname.split('/').at(-1) ?? '').replace(/\.[^.]*$/, '') : '';
  const base = (fromUrl || fallbackBase).replace(/[^\w.-]+/g, '-').slice(0, 200) || 'image';
  return `${base}.${info?.extension ?? 'img'}`;
}

/**
 * Stores an accepted image in the organization's media (service client) and answers its media id; the
 * same bytes already stored there give the existing id. Throws ImageProblem for bytes that are no image, and an
 * Error when storage or the database fails.
 */
export async function storeMedia(
  client: SupabaseClient,
  organizationId: string,
  bytes: Uint8Array,
  describe: { fileName: string; altText: string },
  by: { source: 'upload' | 'webhook'; createdBy: string | null } = { source: 'webhook', createdBy: null },
): Promise<string> {
  let stored;
  try {
    stored = await storeLibraryImage(client, organizationId, bytes);
  } catch (error) {
    if (error instanceof NotAnImage) throw new ImageProblem(`it is not an image (${IMAGE_FORMATS_TEXT})`);
    throw error;
  }
  if ('existing' in stored) return stored.existing.id;
  const { media } = await recordStoredImage(client, {
    ...stored.stored, organizationId, fileName: describe.fileName, altText: describe.altText, ...by,
  });
  return media.id;
}

/** The delivery's image fields, as far as this module is concerned. */
export interface DeliveryImageFields {
  image_base64?: string;
  image_url?: string;
}

/** The stored featured image, and a note for the delivery log about an image that was not taken. */
export interface DeliveryImage {
  mediaId: string | null;
  note: string | null;
}

/**
 * Saving an image failed on our side (Storage or the database answered an error, or could not be reached):
 * the delivery stores nothing and is answered 503, so the tool sends it again, image included. Its message
 * is for the log only.
 */
export class ImageNotSaved extends Error {}

/**
 * The delivery's featured image stored in the organization's media: image_base64 first, else (or when it
 * is refused) image_url. Never throws for a bad image: the problem becomes the note. A failure to save a
 * good image is ours and passing: it throws ImageNotSaved (and marks the request's backend unavailable), as
 * a post stored without the picture it was sent with would be half stored.
 */
export async function deliveryImage(
  client: SupabaseClient,
  organizationId: string,
  fields: DeliveryImageFields,
  describe: { slug: string; title: string },
  policy: FetchPolicy = PUBLIC_ONLY,
): Promise<DeliveryImage> {
  const notes: string[] = [];
  const attempts: [string, () => Promise<{ bytes: Uint8Array; url?: string }>][] = [];
  if (fields.image_base64) attempts.push(['image_base64', async () => ({ bytes: decodeImageBase64(fields.image_base64!) })]);
  if (fields.image_url) attempts.push(['image_url', async () => ({ bytes: await fetchImage(fields.image_url!, policy), url: fields.image_url })]);
  for (const [field, load] of attempts) {
    try {
      const { bytes, url } = await load();
      const mediaId = await storeMedia(client, organizationId, bytes, { fileName: mediaFileName(bytes, describe.slug, url), altText: describe.title });
      return { mediaId, note: notes.join('; ') || null };
    } catch (error) {
      if (!(error instanceof ImageProblem)) {
        markBackendUnavailable();
        throw new ImageNotSaved(`webhook image (${organizationId}): ${(error as Error).message}`);
      }
      notes.push(`${field} not stored: ${error.message}`);
    }
  }
  return { mediaId: null, note: notes.join('; ') || null };
}
