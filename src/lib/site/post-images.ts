/**
 * Build-time processing of the blog's remote pictures (featured images and author photos saved as URLs: the
 * project's Storage, or an external host for older posts), so that no page hotlinks them:
 *
 * 1. The build downloads the URL once (memoized per URL for the whole build), with a time and size limit: a
 *    file of its own backend's Storage directly, any other address only if it is public https and through the
 *    public-only guard (`download`); a refused address is logged and shows the placeholder.
 * 2. sharp reads its size; a download that fails or a file that does not decode gives `null`, and the page shows
 *    the placeholder (or the author's initials): a broken image never fails the build.
 * 3. `astro:assets` `getImage` makes the AVIF and WebP variants (at most the original's width), which the build
 *    writes to `dist/_astro/`. Astro fetches the original again when it writes them, only from hosts in
 *    `image.remotePatterns` (the own Storage, https hosts) and only for an address that passed step 1; for an
 *    external one that is https with certificate checks, so a name that resolves elsewhere the second time
 *    cannot reach an internal host with a certificate for it.
 *
 * Build-only (it imports `astro:assets` and sharp): pages and `.astro` components call it and hand the result to
 * the React cards as a ProcessedPicture.
 */
import { getImage } from 'astro:assets';
import sharp from 'sharp';
import { imageUrlProblem } from '../../schemas/image-url';
import { IMAGE_FORMATS, IMAGE_WIDTHS, isRemoteImageUrl, type PictureSource, type ProcessedPicture } from '../images';
import { PLACEHOLDER_IMAGE, type PostCardData } from '../post-display';
import { toPostCardData, type BlogPost } from './blog-model';
import { fetchPublic, type FetchLimits } from '../public-fetch';
import { publicSupabaseConfig } from '../supabase-config';

/** A download slower than this, or larger, is treated as missing. */
const DOWNLOAD_TIMEOUT_MS = 15_000;
const MAX_BYTES = 20 * 1024 * 1024;

/** How the build downloads an address someone wrote: public https hosts only, through the one guard. */
const PUBLIC_DOWNLOAD: FetchLimits = {
  protocols: ['https:'],
  maxBytes: MAX_BYTES,
  timeoutMs: DOWNLOAD_TIMEOUT_MS,
  maxRedirects: 3,
  accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif',
  userAgent: 'scale-pro-site build',
};

/** True for a public file of the build's own backend (locally a loopback address, so not for the guard). */
function isOwnStorage(url: URL): boolean {
  return url.origin === new URL(publicSupabaseConfig(process.env).url).origin && url.pathname.startsWith('/storage/v1/object/public/');
}

/**
 * The bytes at `url`: the build's own Storage directly; anything else only when the saved-address rule allows it
 * (src/schemas/image-url.ts) and through the public-only guard (every address the host resolves to public, the one
 * connected to).
 */
async function download(url: string): Promise<Buffer> {
  if (!isOwnStorage(new URL(url))) {
    const problem = imageUrlProblem(url);
    if (problem) throw new Error(problem);
    return Buffer.from(await fetchPublic(url, PUBLIC_DOWNLOAD));
  }
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  if (Number(response.headers.get('content-length') ?? 0) > MAX_BYTES) throw new Error('larger than 20 MB');
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > MAX_BYTES) throw new Error('larger than 20 MB');
  return body;
}

/** The intrinsic size of a remote image, or null when it cannot be downloaded or decoded. */
async function remoteSize(url: string): Promise<{ width: number; height: number } | null> {
  try {
    const { width, height } = await sharp(await download(url)).metadata();
    if (!width || !height) throw new Error('no dimensions');
    return { width, height };
  } catch (error) {
    return notProcessed(url, error instanceof Error ? error.message : String(error));
  }
}

/** Says in the build log why a picture shows as the placeholder (or initials). */
function notProcessed(url: string, reason: string): null {
  console.warn(`[post-images] ${url} is shown as a placeholder: ${reason}`);
  return null;
}

const sizes = new Map<string, Promise<{ width: number; height: number } | null>>();

/** remoteSize, downloading each URL once per build. */
function sizeOf(url: string): Promise<{ width: number; height: number } | null> {
  let size = sizes.get(url);
  if (!size) sizes.set(url, (size = remoteSize(url)));
  return size;
}

async function variants(url: string, widths: readonly number[]): Promise<ProcessedPicture | null> {
  const size = await sizeOf(url);
  if (!size) return null;
  // Never upscale: the widths the original covers, or its own width when it is smaller than all of them.
  const fitting = widths.filter((w) => w <= size.width);
  const variantWidths = fitting.length ? fitting : [size.width];
  const sources: PictureSource[] = [];
  let fallback = { src: '', srcSet: '' };
  for (const format of IMAGE_FORMATS) {
    const image = await getImage({ src: url, ...size, format, widths: variantWidths });
    // A host that image.remotePatterns does not allow comes back unprocessed: never hotlink it.
    if (isRemoteImageUrl(image.src)) return notProcessed(url, 'its host is not in image.remotePatterns');
    sources.push({ type: `image/${format}`, srcSet: image.srcSet.attribute });
    if (format === 'webp') fallback = { src: image.src, srcSet: image.srcSet.attribute };
  }
  return { sources, ...fallback, ...size };
}

const pictures = new Map<string, Promise<ProcessedPicture | null>>();

/**
 * A remote picture as AVIF and WebP variants in `widths` (default IMAGE_WIDTHS), or null when the URL is missing,
 * not http(s), cannot be downloaded or does not decode. Each URL is processed once per build.
 */
export function processRemotePicture(url: string | null | undefined, widths: readonly number[] = IMAGE_WIDTHS): Promise<ProcessedPicture | null> {
  if (!isRemoteImageUrl(url)) return Promise.resolve(null);
  const key = `${widths.join(',')} ${url}`;
  let picture = pictures.get(key);
  if (!picture) pictures.set(key, (picture = variants(url, widths)));
  return picture;
}

/** A JPEG variant of a remote picture for link previews (social sites take no AVIF), or null as above. */
export async function socialImage(url: string | null | undefined): Promise<string | null> {
  const size = isRemoteImageUrl(url) ? await sizeOf(url) : null;
  if (!url || !size) return null;
  const width = Math.min(1200, size.width);
  const image = await getImage({ src: url, width, height: Math.round((size.height * width) / size.width), format: 'jpg' });
  return isRemoteImageUrl(image.src) ? null : image.src;
}

/** Widths of a card's picture: at most 400 CSS pixels wide from sm up, the full phone width (3x) below. */
export const CARD_WIDTHS = [400, 800, 1200] as const;

/**
 * A post's card with its featured image processed (the placeholder when it has none or it fails). `image` then
 * names the processed file too: the card rides in the page as search metadata, and no page carries the source URL.
 */
export async function cardWithPicture(post: BlogPost): Promise<PostCardData> {
  const picture = await processRemotePicture(post.featuredImage?.url, CARD_WIDTHS);
  return { ...toPostCardData(post), image: picture?.src ?? PLACEHOLDER_IMAGE, hasFeaturedImage: picture !== null, picture };
}
