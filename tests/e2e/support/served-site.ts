/**
 * The production-like server the browser suite runs against, `npm run serve` (the built site with its functions):
 * its address and environment, shared by Playwright, which starts it when nothing serves yet
 * (playwright.config.ts), and `npm test`, which starts it ahead of the browser suite (tests/run.ts).
 */
import { E2E_DEPLOY_NOTIFICATION_SECRET } from './deploy-secret.ts';

export const SERVED_SITE_URL = 'http://localhost:8888';

/**
 * Publishing in a test records a rebuild request; a real site build in the middle of the run would rewrite dist/
 * under the server, so the quiet window outlasts the suite and no lone change builds at once. Deploy
 * notifications are signed with this secret; admin-deploy-status.spec.ts signs its own. A backend it starts
 * hashes passwords at bcrypt's least cost (supabase/local/auth/users.ts).
 */
export const SERVED_SITE_ENV = {
  REBUILD_QUIET_WINDOW_MS: '3600000',
  REBUILD_AT_ONCE: 'off',
  DEPLOY_NOTIFICATION_SECRET: E2E_DEPLOY_NOTIFICATION_SECRET,
  LOCAL_AUTH_HASH_COST: '4',
};
