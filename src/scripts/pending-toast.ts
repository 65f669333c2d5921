/**
 * Shows the toast a previous page left for this one (`toastOnNextPage`, e.g. 'Session Expired' before a
 * redirect). Only a page that has one loads the toast store and the Toaster.
 */
import { PENDING_TOAST_KEY } from '../lib/pending-toast-key.ts';

if (sessionStorage.getItem(PENDING_TOAST_KEY) !== null) {
  void import('../stores/toast.ts').then(({ showPendingToast }) => showPendingToast());
}
