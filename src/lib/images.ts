/** Width variants the stock photo service serves (spec section 7). */
export const IMAGE_WIDTHS = [400, 800, 1200, 1600] as const;

/** The photo at a given width: Unsplash-style URLs take `w=` (and keep their other parameters). */
export function stockPhotoUrl(src: string, width: number): string {
  const url = new URL(src);
  url.searchParams.set('w', String(width));
  return url.toString();
}

/** `srcset` with every width variant. */
export function stockPhotoSrcset(src: string): string {
  return IMAGE_WIDTHS.map((width) => `${stockPhotoUrl(src, width)} ${width}w`).join(', ');
}
