/** Header behaviour (scrolled past 50 px → opaque, blurred, shadowed, with a scroll-to-top button). */
import { scrollToTop } from './scroll-to-top.ts';

const SCROLL_THRESHOLD = 50;
const header = document.getElementById('site-header');
const toTop = document.getElementById('scroll-to-top');

function update() {
  const scrolled = window.scrollY > SCROLL_THRESHOLD;
  header?.setAttribute('data-scrolled', String(scrolled));
  if (toTop) toTop.hidden = !scrolled;
}
update();
window.addEventListener('scroll', update, { passive: true });
toTop?.addEventListener('click', scrollToTop);

// Open menus close on a click elsewhere and on Escape, like any menu. Looked up at each event, so a menu an
// island adds after this script ran closes too.
const menus = () => [...document.querySelectorAll<HTMLDetailsElement>('details[data-menu]')];
document.addEventListener('click', (event) => {
  for (const menu of menus()) if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
});
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  for (const menu of menus()) {
    if (!menu.open) continue;
    menu.open = false;
    menu.querySelector('summary')?.focus();
  }
});
