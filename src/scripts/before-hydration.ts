/**
 * Islands answer their first interaction before React arrives: the server's markup of a `client:interaction`
 * island is wired by a few hundred bytes of plain script that does the island's job with the island's own
 * functions, until the island has hydrated (Astro removes `ssr` from its `astro-island` then); from that moment
 * React's handlers answer instead. Never both: React listens from the moment Astro starts its hydration, and
 * Astro removes `ssr` right after that, in the same task, so no event comes in between.
 */

/** Whether `element` is still the server's markup of an island that has not hydrated. */
export function beforeHydration(element: Element): boolean {
  return element.closest('astro-island[ssr]') !== null;
}

/** Calls `answer` on each `type` event on the elements matching `selector` while their island has not hydrated. */
export function answerBeforeHydration<E extends Element>(selector: string, type: string, answer: (element: E, event: Event) => void): void {
  for (const element of document.querySelectorAll<E>(selector)) {
    element.addEventListener(type, (event) => {
      if (beforeHydration(element)) answer(element, event);
    });
  }
}
