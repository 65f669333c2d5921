import { join } from 'node:path';

/**
 * The seed admin's browser storage after signing in through /auth (seed-admin.setup.ts, once per run, before
 * the lanes start). A test that only needs to be the seed admin starts from it (`test.use({ signedInAs: 'seed
 * admin' })`, fixtures.ts) instead of signing in again. Tests that sign out, end sessions, change the seed
 * admin or look at the sign-in itself keep the form: the saved session is every such test's at once.
 */
export const SEED_ADMIN_STATE = join(import.meta.dirname, '../../../test-results/.auth/seed-admin.json');
