import { useCallback, useEffect, useEffectEvent, useState, type DependencyList } from 'react';

/**
 * What a screen shows while it reads the backend. `value` while `loading` is the previous answer for the same
 * inputs (a reload keeps the screen filled); after the inputs change (another organization, post or page) it is
 * absent, so nothing of the previous organization is ever shown under the new one's name.
 */
export type Loaded<T> =
  | { state: 'loading'; value?: T }
  | { state: 'ready'; value: T }
  | { state: 'error'; error: unknown; value?: T };

export type LoadState<T> = Loaded<T> & {
  /** Asks again with the same inputs, keeping the current value on screen until the answer comes. */
  reload: () => void;
  /** Changes the value on screen (after a save the screen already knows the new state). */
  update: (change: (value: T) => T) => void;
};

type Answer<T> = { deps: DependencyList; scope: DependencyList | undefined; attempt: number; result: { ok: true; value: T } | { ok: false; error: unknown } };

const sameDeps = (a: DependencyList, b: DependencyList) => a.length === b.length && a.every((item, index) => Object.is(item, b[index]));

/**
 * The one way the back office loads data: `load()` runs when the screen mounts, whenever `deps` change (as
 * React's effect dependencies: list everything `load` reads; the lint rule checks it) and on `reload()`.
 * Only the answer to the latest request is kept: a slow answer for the organization the admin just left, or
 * for the previous search, is dropped when it lands late. Failures are logged and returned as `error`.
 *
 * `scope` (a part of `deps`, usually the organization) keeps the previous answer on screen while other inputs
 * change within it (a new search shows the last results until its own arrive); a change of scope clears it.
 */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList, scope?: DependencyList): LoadState<T> {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [attempt, setAttempt] = useState(0);
  const run = useEffectEvent(load);

  useEffect(() => {
    let latest = true;
    const requested = { deps, scope, attempt };
    run().then(
      (value) => latest && setAnswer({ ...requested, result: { ok: true, value } }),
      (error: unknown) => {
        console.error(error);
        if (latest) setAnswer({ ...requested, result: { ok: false, error } });
      },
    );
    return () => {
      latest = false;
    };
    // The inputs are the caller's `deps`; `run` always calls the latest `load`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const update = useCallback((change: (value: T) => T) => {
    setAnswer((current) => (current?.result.ok ? { ...current, result: { ok: true, value: change(current.result.value) } } : current));
  }, []);

  const forInputs = answer && sameDeps(answer.deps, deps) ? answer : null;
  const inScope = answer && scope && answer.scope && sameDeps(answer.scope, scope) ? answer : null;
  const kept = forInputs ?? inScope;
  const previous = kept?.result.ok ? kept.result.value : undefined;
  if (!forInputs || forInputs.attempt !== attempt) return { state: 'loading', value: previous, reload, update };
  if (!forInputs.result.ok) return { state: 'error', error: forInputs.result.error, value: previous, reload, update };
  return { state: 'ready', value: forInputs.result.value, reload, update };
}
