import { type RefObject, useEffect, useState } from 'react';
import { clearAutosave, readAutosave, writeAutosave } from '../../../lib/back-office/post-autosave';
import type { PostForm } from './post-form';

/** How long typing pauses before the form is kept locally (ms). */
const AUTOSAVE_DELAY_MS = 800;

/**
 * The editor's form, kept in this browser while it differs from the saved post (`initial`) and dropped once
 * they match again. A form kept earlier and never saved comes back (`restoredAt` says from when) until it is
 * discarded. Nothing is kept while a save runs (`paused`) or after the user chose to leave (`leftRef`).
 */
export function useKeptForm(storageKey: string, initial: PostForm, paused: boolean, leftRef: RefObject<boolean>) {
  const [kept] = useState(() => {
    const found = readAutosave<PostForm>(localStorage, storageKey);
    return found && JSON.stringify(found.form) !== JSON.stringify(initial) ? found : null;
  });
  const [restoredAt, setRestoredAt] = useState<string | null>(kept?.savedAt ?? null);
  const [form, setForm] = useState<PostForm>(() => (kept ? { ...initial, ...kept.form } : initial));
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => {
      if (leftRef.current) return;
      if (dirty) writeAutosave(localStorage, storageKey, form);
      else clearAutosave(localStorage, storageKey);
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form, dirty, paused, storageKey, leftRef]);

  /** Back to the saved post, forgetting the kept form. */
  function discard() {
    clearAutosave(localStorage, storageKey);
    setForm(initial);
    setRestoredAt(null);
  }

  /** Forgets the kept form (the post was saved, or a revision restored). */
  const forget = () => clearAutosave(localStorage, storageKey);

  return { form, setForm, dirty, restoredAt, discard, forget };
}
