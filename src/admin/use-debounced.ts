import { useEffect, useState } from 'react';

/**
 * `value` once it has stopped changing for `delayMs` (a search box asks the backend when typing pauses, not
 * at every key). The first value is taken at once; a delay of 0 takes every change on the next tick.
 */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
