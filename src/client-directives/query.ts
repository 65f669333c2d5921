/**
 * `client:query`: the search page's island hydrates only when the address carries something to search (a
 * non-blank `q`, the rule of `searchQuery`). Without one there is nothing to run, so React is never fetched:
 * the island's server-rendered placeholder is hidden and the page's `[data-blank-query]` message shown.
 *
 * Runs as Astro's directive script (inlined in the page; the Content-Security-Policy hashes it).
 */
import type { ClientDirective } from 'astro';
import { searchQuery } from '../lib/blog-urls.ts';

const query: ClientDirective = async (load, _options, island) => {
  if (searchQuery(location.search)) {
    const hydrate = await load();
    await hydrate();
    return;
  }
  // An astro-island is `display: contents`, which outranks the `hidden` attribute.
  island.style.display = 'none';
  document.querySelector<HTMLElement>('[data-blank-query]')?.removeAttribute('hidden');
};

export default query;
