/**
 * What every part says while the backend is out of reach, in the same words: the functions' 503 body (`message`
 * as every function's errors carry it, `title` for the pages that show a notice) and the back office's own
 * notice when its requests to the backend fail. Kept here, outside server/, so the browser says what the
 * functions say.
 */
export const SERVICE_UNAVAILABLE = {
  title: 'Temporarily Unavailable',
  message: 'The service is temporarily unavailable. Please try again in a minute.',
} as const;

/** A gateway answers these while the service behind it is down or restarting (our functions answer 503). */
export const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
