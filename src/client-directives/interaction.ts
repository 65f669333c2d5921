/**
 * `client:interaction`: an island hydrates when a visitor reaches for it, not before. The server-rendered
 * island is visible and looks ready at once; its JavaScript (and React) is fetched on the first `pointerover`,
 * `focusin` or `touchstart` on it, so keyboard, mouse and touch users all start it by arriving. A click that
 * comes before hydration has finished (a tap on a slow phone, Enter on a focused button) is held and replayed
 * on the same control once the island is live, so the first click or key press always works; every click held
 * is replayed, in order (two quick clicks on the theme toggle switch it twice, as they would on a live one).
 *
 * Runs as Astro's directive script (inlined once per page that uses it; the Content-Security-Policy hashes it
 * with the page's other inline scripts).
 */
import type { ClientDirective } from 'astro';

/** What starts the hydration. */
const REACHING = ['pointerover', 'focusin', 'touchstart'] as const;

/** The control a held click was meant for: the nearest interactive element around its target. */
function controlOf(target: EventTarget | null): HTMLElement | null {
  if (!(target instanceof Element)) return null;
  return target.closest<HTMLElement>('button, a[href], input, select, textarea, summary, [role="button"], [role="menuitem"]');
}

const interaction: ClientDirective = (load, _options, el) => {
  let started = false;
  let live = false;
  const held: HTMLElement[] = [];

  const onClick = (event: Event) => {
    if (live) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const control = controlOf(event.target);
    if (control) held.push(control);
    void start();
  };

  async function start() {
    if (started) return;
    started = true;
    for (const type of REACHING) el.removeEventListener(type, start);
    const hydrate = await load();
    await hydrate();
    live = true;
    el.removeEventListener('click', onClick, true);
    for (const control of held.splice(0)) control.click();
  }

  for (const type of REACHING) el.addEventListener(type, start, { passive: true });
  el.addEventListener('click', onClick, true);
};

export default interaction;
