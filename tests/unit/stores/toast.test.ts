import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toast, dismissToast, PENDING_TOAST_KEY, PENDING_TOAST_READ_MS, showPendingToast, toast, TOAST_DURATION_MS, toastOnNextPage } from '../../../src/stores/toast';

// The Toaster arrives when the test says so: in a browser it is fetched, which can take seconds.
const toasterMounted = vi.hoisted(() => ({ resolve: () => {}, promise: Promise.resolve() }));
vi.mock('../../../src/scripts/mount-toaster.ts', () => ({ mountToaster: () => toasterMounted.promise }));

/** A Map-backed Storage stand-in (sessionStorage does not exist in Node). */
function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  dismissToast();
  vi.useRealTimers();
});

describe('toast', () => {
  it('shows one toast and hides it after 5 seconds', () => {
    toast({ title: 'Saved', description: 'All good' });
    expect($toast.get()).toMatchObject({ title: 'Saved', description: 'All good', variant: 'default', durationMs: TOAST_DURATION_MS });
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect($toast.get()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect($toast.get()).toBeNull();
  });

  it('replaces the current toast, and the old timer does not hide the new one', () => {
    toast({ title: 'First' });
    vi.advanceTimersByTime(4000);
    toast({ title: 'Second', variant: 'destructive' });
    vi.advanceTimersByTime(1500);
    expect($toast.get()).toMatchObject({ title: 'Second', variant: 'destructive' });
  });

  it('dismisses only the toast it names', () => {
    const first = toast({ title: 'First' });
    toast({ title: 'Second' });
    dismissToast(first);
    expect($toast.get()?.title).toBe('Second');
    dismissToast();
    expect($toast.get()).toBeNull();
  });

  it('carries a toast to the next page only: stored until it was on screen for a moment, so later pages do not repeat it', async () => {
    const storage = memoryStorage();
    toastOnNextPage({ title: 'Admin Access Granted', description: 'Welcome to the administrative dashboard.' }, storage);
    expect(storage.values.has(PENDING_TOAST_KEY)).toBe(true);
    const shown = showPendingToast(storage);
    expect($toast.get()).toMatchObject({ title: 'Admin Access Granted' });
    // A reload now (the page gone before the message could be read) would show it again.
    await vi.advanceTimersByTimeAsync(PENDING_TOAST_READ_MS - 1);
    expect(storage.values.has(PENDING_TOAST_KEY)).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await shown;
    // Read: the next page the admin opens (while it is still on screen here) shows nothing.
    expect(storage.values.has(PENDING_TOAST_KEY)).toBe(false);
    expect($toast.get()?.title).toBe('Admin Access Granted');
    expect(TOAST_DURATION_MS).toBeGreaterThan(PENDING_TOAST_READ_MS);
  });

  it('forgets the carried toast once it is closed or replaced', async () => {
    const storage = memoryStorage();
    toastOnNextPage({ title: 'Post published successfully!' }, storage);
    const shown = showPendingToast(storage);
    toast({ title: 'Something newer' });
    await shown;
    expect(storage.values.has(PENDING_TOAST_KEY)).toBe(false);
  });

  it('keeps a toast left for the next page while the carried one was on screen (a session ended right after the welcome)', async () => {
    const storage = memoryStorage();
    toastOnNextPage({ title: 'Admin Access Granted' }, storage);
    const shown = showPendingToast(storage);
    toastOnNextPage({ title: 'Session Expired', description: 'Your session has expired. Please log in again.' }, storage);
    await vi.advanceTimersByTimeAsync(PENDING_TOAST_READ_MS);
    await shown;
    expect(JSON.parse(storage.values.get(PENDING_TOAST_KEY)!)).toMatchObject({ title: 'Session Expired' });
  });

  it('drops an unreadable pending toast', async () => {
    const storage = memoryStorage();
    storage.setItem(PENDING_TOAST_KEY, '{not json');
    await showPendingToast(storage);
    expect($toast.get()).toBeNull();
    expect(storage.values.size).toBe(0);
  });

  it('counts the 5 seconds from when the Toaster is on the page, not from when the toast was raised', async () => {
    vi.stubGlobal('document', {});
    toasterMounted.promise = new Promise<void>((resolve) => (toasterMounted.resolve = resolve));
    try {
      toast({ title: 'Post published successfully!' });
      await vi.advanceTimersByTimeAsync(TOAST_DURATION_MS * 2);
      expect($toast.get()?.title).toBe('Post published successfully!');
      toasterMounted.resolve();
      await vi.advanceTimersByTimeAsync(TOAST_DURATION_MS - 1);
      expect($toast.get()?.title).toBe('Post published successfully!');
      await vi.advanceTimersByTimeAsync(1);
      expect($toast.get()).toBeNull();
    } finally {
      vi.unstubAllGlobals();
      toasterMounted.promise = Promise.resolve();
    }
  });
});
