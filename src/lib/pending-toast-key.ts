/** sessionStorage key of a toast waiting for the next page (its own module, so a page can check it for a few bytes). */
export const PENDING_TOAST_KEY = 'pendingToast';
