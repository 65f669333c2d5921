import type { SyntheticEvent } from 'react';
import type { ProcessedPicture } from '../../lib/images';
import { PLACEHOLDER_IMAGE } from '../../lib/post-display';

interface Props {
  /** Processed at build (post-images.ts); null shows `url`, or the placeholder when there is none. */
  picture: ProcessedPicture | null | undefined;
  /**
   * An unprocessed URL, shown as is: only the back office's previews pass one (a draft's image is not built
   * yet). Public pages pass only `picture`, so they never hotlink.
   */
  url?: string | null;
  sizes: string;
  /** What the picture shows (the Media Library's alt text); empty: decorative, the title next to it says it. */
  alt?: string;
  /** The box the picture is drawn in when there is none to take the size from (the placeholder's). */
  width: number;
  height: number;
  eager?: boolean;
  className: string;
}

/** A failed image falls back to the placeholder once (the same rule as image-fallback.ts). */
export function showPlaceholder(event: SyntheticEvent<HTMLImageElement>) {
  const img = event.currentTarget;
  if (img.dataset.fallbackTried === 'true') return;
  img.dataset.fallbackTried = 'true';
  img.removeAttribute('srcset');
  img.closest('picture')?.querySelectorAll('source').forEach((source) => source.remove());
  img.src = PLACEHOLDER_IMAGE;
}

/**
 * A post's picture (featured image on a card or the post page): AVIF and WebP sources with the `<img>`'s width
 * and height from the processed image, so nothing shifts; the placeholder when the post has none or its image
 * could not be processed. Described by the image's alt text; without one it is decorative (the title next to it
 * says what the post is), and so is the placeholder.
 */
export default function PostPicture({ picture, url, sizes, alt = '', width, height, eager = false, className }: Props) {
  const loading = eager ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const };
  if (picture) {
    return (
      <picture>
        {picture.sources.map((source) => <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />)}
        <img
          src={picture.src}
          srcSet={picture.srcSet}
          sizes={sizes}
          alt={alt}
          width={picture.width}
          height={picture.height}
          decoding="async"
          {...loading}
          data-fallback={PLACEHOLDER_IMAGE}
          onError={showPlaceholder}
          className={className}
        />
      </picture>
    );
  }
  return (
    <img
      src={url || PLACEHOLDER_IMAGE}
      alt={url ? alt : ''}
      width={width}
      height={height}
      decoding="async"
      {...loading}
      data-fallback={url ? PLACEHOLDER_IMAGE : undefined}
      onError={url ? showPlaceholder : undefined}
      className={className}
    />
  );
}
