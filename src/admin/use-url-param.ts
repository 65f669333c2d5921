import { useCallback, useSyncExternalStore } from 'react';

/** Fired on window after we change the query string ourselves (pushState fires no event). */
export const URL_CHANGE_EVENT = 'admin:urlchange';

function subscribe(onChange: () => void) {
  window.addEventListener('popstate', onChange);
  window.addEventListener(URL_CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(URL_CHANGE_EVENT, onChange);
  };
}

/**
 * Sets query parameters (null removes one) as a new history entry, so Back undoes it, or in place with
 * `replace`. Every `useUrlParam` re-reads the URL.
 */
export function setUrlParams(changes: Record<string, string | null>, { replace = false } = {}) {
  const url = new URL(window.location.href);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  if (url.href === window.location.href) return;
  if (replace) window.history.replaceState(window.history.state, '', url);
  else window.history.pushState(window.history.state, '', url);
  window.dispatchEvent(new Event(URL_CHANGE_EVENT));
}

/**
 * One query parameter as React state: the URL is the source of truth, so reload, Back and Forward restore
 * the tab or dialog it names. Returns the value (null when absent) and a setter (null removes it).
 */
export function useUrlParam(name: string): [string | null, (value: string | null, options?: { replace?: boolean }) => void] {
  const value = useSyncExternalStore(
    subscribe,
    () => new URL(window.location.href).searchParams.get(name),
    () => null,
  );
  const setValue = useCallback(
    (next: string | null, options?: { replace?: boolean }) => setUrlParams({ [name]: next }, options),
    [name],
  );
  return [value, setValue];
}
