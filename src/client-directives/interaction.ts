/**
 * `client:interaction`: an island hydrates once a visitor reaches for it, not before, and never stands in the
 * way of that first interaction. The server-rendered island works by itself: a small plain script answers its
 * clicks, taps, keys and submits until React is live (src/scripts/before-hydration.ts), so the first tap
 * answers in a frame. Reaching for the island (`pointerover`, `focusin`, `touchstart`, or a click, such as a
 * screen reader's activation) starts fetching its JavaScript (and React), and it hydrates when the browser is
 * next idle, so hydrating never delays the frame that shows the answer. React then takes over from the same
 * state: the plain script changed nothing React renders differently.
 *
 * Runs as Astro's directive script (inlined once per page that uses it; the Content-Security-Policy hashes it
 * with the page's other inline scripts).
 */
import type { ClientDirective } from 'astro';

/** What starts fetching the island. */
const REACHING = ['pointerover', 'focusin', 'touchstart', 'click'] as const;

/** Runs `work` when the browser is idle (Safari has no requestIdleCallback: after the current task there). */
const whenIdle = (work: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work));

const interaction: ClientDirective = (load, _options, el) => {
  const start = () => {
    for (const type of REACHING) el.removeEventListener(type, start);
    void load().then((hydrate) => whenIdle(() => void hydrate()));
  };
  for (const type of REACHING) el.addEventListener(type, start, { passive: true });
};

export default interaction;
