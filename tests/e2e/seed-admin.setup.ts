/**
 * Before the lanes: the seed admin signs in once through the real /auth form, and the browser's storage is
 * saved for the tests that only need to be that admin (support/saved-session.ts).
 */
import { test as setup } from '@playwright/test';
import { SEED_ADMIN_STATE } from './support/saved-session';
import { signInAsAdmin } from './support/sign-in';

setup('the seed admin signs in through /auth', async ({ browser, baseURL }) => {
  // A context of its own, as every test's (fixtures.ts); the storage saved is what this sign-in left.
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInAsAdmin(page);
  await context.storageState({ path: SEED_ADMIN_STATE });
  await context.close();
});
