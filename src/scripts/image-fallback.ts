/**
 * Images that fail try their `data-fallback` once; after that they become 'Failed to load image' in the
 * same box. Images can fail before this module runs, so broken ones are handled at start.
 */
function failed(img: HTMLImageElement) {
  const fallback = img.dataset.fallback;
  if (fallback && img.dataset.fallbackTried !== 'true') {
    img.dataset.fallbackTried = 'true';
    img.removeAttribute('srcset');
    // In a <picture> the browser would keep choosing a <source>: only the fallback is left.
    img.closest('picture')?.querySelectorAll('source').forEach((source) => source.remove());
    img.src = fallback;
    return;
  }
  const box = document.createElement('div');
  box.className = `${img.className} flex items-center justify-center text-sm text-muted-foreground`;
  box.style.aspectRatio = `${img.width} / ${img.height}`;
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', img.alt);
  box.textContent = 'Failed to load image';
  img.replaceWith(box);
}

for (const img of document.querySelectorAll<HTMLImageElement>('img[data-fallback], img[srcset]')) {
  img.addEventListener('error', () => failed(img));
  if (img.complete && img.naturalWidth === 0 && img.currentSrc) failed(img);
}
