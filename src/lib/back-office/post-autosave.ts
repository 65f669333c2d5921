/**
 * The editor's local autosave: the form of a post being written is kept in this browser's localStorage
 * while it differs from what is saved, so a reload, a crash or a closed tab loses nothing; it is offered
 * back when the post is opened again and dropped once the post is saved or the changes are discarded.
 * One entry per organization and post ("new" for a post not saved yet).
 */

/** A kept form: its fields and when it was kept. */
export interface Autosave<T> {
  savedAt: string;
  form: T;
}

/** The localStorage key of a post's autosave. */
export function autosaveKey(organizationId: string, postId: string | null): string {
  return `postDraft:${organizationId}:${postId ?? 'new'}`;
}

/** The kept form, or null when there is none or it cannot be read. */
export function readAutosave<T>(storage: Pick<Storage, 'getItem'>, key: string): Autosave<T> | null {
  try {
    const kept = JSON.parse(storage.getItem(key) ?? 'null') as Autosave<T> | null;
    return kept && typeof kept.savedAt === 'string' && kept.form && typeof kept.form === 'object' ? kept : null;
  } catch {
    return null;
  }
}

/** Keeps the form (a full storage is not an error: the autosave is a safety net, not a save). */
export function writeAutosave<T>(storage: Pick<Storage, 'setItem'>, key: string, form: T, now: Date = new Date()): void {
  try {
    storage.setItem(key, JSON.stringify({ savedAt: now.toISOString(), form } satisfies Autosave<T>));
  } catch (error) {
    console.warn('The draft could not be kept in this browser:', error);
  }
}

export function clearAutosave(storage: Pick<Storage, 'removeItem'>, key: string): void {
  storage.removeItem(key);
}
