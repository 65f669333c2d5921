import { type RefObject, useEffect, useState } from 'react';
import { clearAutosave, readAutosave, writeAutosave } from '../../../lib/back-office/post-autosave';
import { changedFields, type PostForm } from './post-form';

/** How long typing pauses before the form is kept locally (ms). */
const AUTOSAVE_DELAY_MS = 800;

/**
 * The editor's changes, kept in this browser while the form differs from the saved post (`initial`) and dropped
 * once they match again: only the fields changed (changedFields), so changes kept earlier and never saved come
 * back over the post as it is now (`restoredAt` says from when) without reverting what others changed since,
 * until they are discarded. Nothing is kept while a save runs (`paused`) or after the user chose to leave
 * (`leftRef`).
 */
export function useKeptForm(storageKey: string, initial: PostForm, paused: boolean, leftRef: RefObject<boolean>) {
  const [kept] = useState(() => {
    const found = readAutosave<Partial<PostForm>>(localStorage, storageKey);
    return found && Object.keys(changedFields({ ...initial, ...found.form }, initial)).length > 0 ? found : null;
  });
  const [restoredAt, setRestoredAt] = useState<string | null>(kept?.savedAt ?? null);
  const [form, setForm] = useState<PostForm>(() => (kept ? { ...initial, ...kept.form } : initial));
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => {
      if (leftRef.current) return;
      if (dirty) writeAutosave(localStorage, storageKey, changedFields(form, initial));
      else clearAutosave(localStorage, storageKey);
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form, initial, dirty, paused, storageKey, leftRef]);

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
