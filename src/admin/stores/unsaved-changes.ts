/**
 * What the dashboard tab on view has not saved (its name, such as "Settings"), or null: switching to another tab
 * asks first instead of dropping it, as leaving the post editor does (src/admin/AdminApp.tsx asks).
 */
import { atom } from 'nanostores';

export const $unsavedChanges = atom<string | null>(null);
