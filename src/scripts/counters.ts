/**
 * Counts `[data-counter]` numbers up from 0 when they scroll into view: about 2 s in 16 ms steps
 * (spec section 9). Reduced motion keeps the final value the HTML already shows.
 */
const DURATION_MS = 2000;
const STEP_MS = 16;

function animate(element: HTMLElement) {
  const target = Number(element.dataset.counter);
  const suffix = element.dataset.suffix ?? '';
  const steps = Math.ceil(DURATION_MS / STEP_MS);
  let step = 0;
  const timer = setInterval(() => {
    step += 1;
    element.textContent = `${Math.round((target * step) / steps)}${suffix}`;
    if (step >= steps) clearInterval(timer);
  }, STEP_MS);
}

const counters = document.querySelectorAll<HTMLElement>('[data-counter]');
if (counters.length > 0 && !matchMedia('(prefers-reduced-motion: reduce)').matches) {
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
