/** Drives `#cursor-follower` (see CursorFollower.astro). */
const follower = document.getElementById('cursor-follower');
const enabled = matchMedia('(hover: hover) and (pointer: fine)').matches && !matchMedia('(prefers-reduced-motion: reduce)').matches;

if (follower && enabled) {
  follower.hidden = false;
  follower.dataset.hide = 'true';
  document.addEventListener(
    'pointermove',
    (event) => {
      if (event.pointerType !== 'mouse') return;
      const target = event.target as Element;
      follower.style.translate = `${event.clientX}px ${event.clientY}px`;
      follower.dataset.hide = String(Boolean(target.closest('header, nav')));
      follower.dataset.grow = String(Boolean(target.closest('a, button, summary, [role="button"]')));
    },
    { passive: true },
  );
  document.addEventListener('pointerleave', () => (follower.dataset.hide = 'true'));
}
