/**
 * A counter bumped after every change to an organization's members or invitations (create, invite, role,
 * status, edit, resend, revoke), so counters shown elsewhere (the System Overview below the tabs) reload.
 */
import { atom } from 'nanostores';

/** How many member changes this page has seen; listeners reload when it moves. */
export const $staffChanged = atom(0);

/** Tells the listeners that members or invitations changed. */
export function notifyStaffChanged(): void {
  $staffChanged.set($staffChanged.get() + 1);
}
