/**
 * The site's responsive pictures, as the browser sees them: the widths and formats every picture is built in,
 * the `sizes` of each place a picture is shown, and the shape of a picture processed at build time (which the
 * React cards take as props, since they cannot await the processing themselves). Browser-safe: the build-only
 * processing of remote images lives in `post-images.ts`.
 */

/** Width variants every picture is built in; a browser picks one from `srcset` and `sizes`. */
export const IMAGE_WIDTHS = [400, 800, 1200, 1600] as const;

/** Formats offered in `<source>` order: the browser takes the first it decodes, the `<img>` keeps a JPEG/WebP fallback. */
export const IMAGE_FORMATS = ['avif', 'webp'] as const;

/** How wide each picture shows at each breakpoint (the layouts' columns), for `sizes`. */
export const IMAGE_SIZES = {
  /** Hero and about preview: half of the max-w-6xl container from md up, the full width below. */
  halfColumn: '(min-width: 1152px) 536px, (min-width: 768px) 50vw, 100vw',
  /** Post cards: two columns from md up. */
  card: '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw',
  /** The post page's featured image, in the article column. */
  article: '(min-width: 1024px) 720px, 100vw',
  /** Author avatars: 64 CSS pixels. */
  avatar: '64px',
} as const;

/** One `<source>` of a processed picture. */
export interface PictureSource {
  type: `image/${(typeof IMAGE_FORMATS)[number]}`;
  srcSet: string;
}

/** A picture processed at build time: AVIF and WebP sources, a fallback `src`, and its intrinsic size (no layout shift). */
export interface ProcessedPicture {
  sources: PictureSource[];
  /** The `<img>` fallback: a WebP variant (every browser that ignores `<source>` types still gets an image). */
  src: string;
  srcSet: string;
  width: number;
  height: number;
}

/**
 * Astro's `image.remotePatterns` entry for the Supabase project's public Storage objects: the build downloads
 * and processes images from there (featured images and avatars uploaded in the back office).
 */
export function storageRemotePattern(supabaseUrl: string): { protocol: string; hostname: string; port?: string; pathname: string } {
  const url = new URL(supabaseUrl);
  return {
    protocol: url.protocol.replace(':', ''),
    hostname: url.hostname,
    ...(url.port ? { port: url.port } : {}),
    pathname: '/storage/v1/object/public/**',
  };
}

/** Whether a saved image URL can be downloaded at build: an absolute http(s) URL; anything else shows the placeholder. */
export function isRemoteImageUrl(url: string | null | undefined): url is string {
  return Boolean(url && /^https?:\/\/\S+$/i.test(url) && URL.canParse(url));
}

/** Up to two initials of a name ("Ada Lovelace" → "AL"), shown when an author has no photo or it fails. */
export function initialsOf(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => [...word][0]!)
    .join('')
    .slice(0, 2)
    .toUpperCase();
}
