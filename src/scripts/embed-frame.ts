/**
 * The form provider's frames (contact form, booking calendar): loads the provider's script once, removes the
 * loading note when the frame loads, and shows the frame's fallback (src/components/EmbedFallback.astro) when the
 * provider cannot be reached or is slow, instead of a broken frame or an empty box.
 */
import { loadProviderScript } from './provider-script.ts';

/** How long a frame may take to load before its fallback shows: a slow provider, or one that never answers. */
export const EMBED_PATIENCE_MS = 8000;

/**
 * Watches `frame` inside `box` (which holds `[data-embed-fallback]` and maybe `[data-loading]`). The fallback
 * shows when the provider's script cannot be fetched (the provider is unreachable: a frame's `load` fires even
 * for the browser's error page, so it proves nothing), or when the frame has not loaded within
 * EMBED_PATIENCE_MS; a frame that loads after a slow start hides it again. While it shows, the frame is hidden
 * (its error page is white, whatever the theme) and the box carries `data-fallback`, which its styles use to fit
 * the fallback rather than keep the frame's height. Returns a function that stops watching.
 */
export function watchEmbed(box: HTMLElement, frame: HTMLIFrameElement): () => void {
  const fallback = box.querySelector<HTMLElement>('[data-embed-fallback]');
  let unreachable = false;
  const toggle = (shown: boolean) => {
    if (!fallback) return;
    fallback.hidden = !shown;
    frame.hidden = shown;
    box.toggleAttribute('data-fallback', shown);
    if (shown) box.querySelector('[data-loading]')?.remove();
  };
  const show = () => toggle(true);
  const timer = setTimeout(show, EMBED_PATIENCE_MS);
  const loaded = () => {
    clearTimeout(timer);
    box.querySelector('[data-loading]')?.remove();
    if (!unreachable) toggle(false);
  };
  if (frame.dataset.loaded === 'true') loaded();
  else frame.addEventListener('load', loaded, { once: true });
  void loadProviderScript().then((reached) => {
    if (reached) return;
    unreachable = true;
    clearTimeout(timer);
    show();
  });
  return () => {
    clearTimeout(timer);
    frame.removeEventListener('load', loaded);
    toggle(false);
  };
}
