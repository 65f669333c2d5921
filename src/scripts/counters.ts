/**
 * Counts `[data-counter]` numbers up from 0 when they scroll into view, over about 2 s, one
 * step per frame the browser paints (a timer would also run, and lay the page out, between frames). Reduced
 * motion keeps the final value the HTML already shows.
 */
const DURATION_MS = 2000;

function animate(element: HTMLElement) {
  const target = Number(element.dataset.counter);
  const suffix = element.dataset.suffix ?? '';
  let start: number | undefined;
  const frame = (now: number) => {
    start ??= now;
    const progress = Math.min(1, (now - start) / DURATION_MS);
    element.textContent = `${Math.round(target * progress)}${suffix}`;
    if (progress < 1) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** Starts counting the counters on screen, and each other one when it scrolls into view. */
function watch(counters: NodeListOf<HTMLElement>) {
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        animate(entry.target as HTMLElement);
      }
    },
    { threshold: 0.1 },
  );
  for (const counter of counters) observer.observe(counter);
}

// Counting waits until the page has loaded and the browser is idle: every counted frame is painted, and painting
// while the page is still loading delays it (on a phone, by hundreds of milliseconds).
const counters = document.querySelectorAll<HTMLElement>('[data-counter]');
if (counters.length > 0 && !matchMedia('(prefers-reduced-motion: reduce)').matches) {
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(() => watch(counters)) : setTimeout(() => watch(counters), 200));
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}
