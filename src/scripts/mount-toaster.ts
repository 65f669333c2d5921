/**
 * Puts the Toaster on the page the first time a toast is raised (`toast()` calls this), so pages that never
 * toast load neither it nor React for it. One Toaster per page, however many islands toast. The live region
 * goes on the page empty and the toast a frame later: screen readers announce changes to a live region, not a
 * region that arrives already filled.
 */
import type { ToasterProps } from '../components/Toaster';

let mounting: Promise<void> | undefined;

/** Mounts the Toaster once per page, showing `props.toast` (the store passes itself: no import circle). */
export function mountToaster(props: ToasterProps): Promise<void> {
  mounting ??= (async () => {
    const region = document.createElement('div');
    region.setAttribute('role', 'status');
    region.setAttribute('aria-label', 'Notifications');
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('aria-atomic', 'true');
    region.className = 'pointer-events-none fixed right-4 z-50 flex w-[calc(100%-2rem)] max-w-sm flex-col';
    // A page with a bar fixed to the bottom of the screen (the post editor on a phone) sets --toast-lift to
    // its height, so a toast never covers the buttons it is about. (Set through the CSSOM, which the CSP allows.)
    region.style.bottom = 'calc(1rem + var(--toast-lift, 0px))';
    document.body.append(region);
    const [{ createElement }, { createRoot }, { default: Toaster }] = await Promise.all([
      import('react'),
      import('react-dom/client'),
      import('../components/Toaster'),
      new Promise((frame) => requestAnimationFrame(frame)),
    ]);
    createRoot(region).render(createElement(Toaster, props));
  })();
  return mounting;
}
