import { type RefObject, useEffect } from 'react';

/**
 * Keeps toasts above the action bar while it is fixed to the bottom of the screen (phones and tablets): the
 * Toaster reads the bar's height from --toast-lift.
 */
export function useToastLift(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    const measure = () => root.style.setProperty('--toast-lift', getComputedStyle(element).position === 'fixed' ? `${element.offsetHeight}px` : '0px');
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toast-lift');
    };
  }, [bar]);
}
