/** Moves each `[data-speed]` layer against the scroll, at its own speed, once per frame. */
export function startParallax(root: HTMLElement): void {
  const layers = [...root.querySelectorAll<HTMLElement>('[data-speed]')];
  let queued = false;
  const update = () => {
    queued = false;
    for (const layer of layers) layer.style.transform = `translate3d(0, ${-window.scrollY * Number(layer.dataset.speed)}px, 0)`;
  };
  window.addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(update);
    },
    { passive: true },
  );
  update();
}
