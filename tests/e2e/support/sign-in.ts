/** Signing in through the real /auth form, as a person would, and landing on /admin. */
import { expect, type Page } from '@playwright/test';
import { waitForIslands } from '../fixtures';
import { createUser, PASSWORD, service } from './backend';

/** The seeded admin of Scale Pro Marketing. */
export const SEED_ADMIN_EMAIL = 'admin@scale-pro.test';

/** Fills /auth with `email` and `password` and submits; does not wait for the outcome. */
export async function submitSignIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/auth');
  await waitForIslands(page);
  await page.getByRole('main').getByLabel('Email').fill(email);
  await page.getByRole('main').getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/**
 * Opens a back-office address signed out, is sent to /auth (which keeps the address to return to), signs in as
 * `email` there and waits to be back at the address.
 */
export async function signInAt(page: Page, path: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/auth\?next=/);
  await page.getByRole('main').getByLabel('Email').fill(email);
  await page.getByRole('main').getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
}

/** Signs in as an admin (the seeded one by default) and waits for the dashboard. */
export async function signInAsAdmin(page: Page, email = SEED_ADMIN_EMAIL, password = PASSWORD): Promise<void> {
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
}

/** Opens the back office as the saved seed admin and waits for the dashboard. */
export async function openDashboard(page: Page): Promise<void> {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
}

/** Evergreen Landscaping, the seed's second organization. */
export const EVERGREEN_ID = '10000000-0000-4000-8000-000000000002';

/**
 * A new admin of Scale Pro who is also a member of Evergreen with `evergreenRole`, signed in at /auth (not
 * waiting for where they land). The caller removes the user (removeUser) when done.
 */
export async function signInMemberOfBoth(page: Page, evergreenRole: 'admin' | 'editor' | 'viewer') {
  const user = await createUser('admin');
  const { error } = await service.from('organization_memberships').insert({ user_id: user.id, organization_id: EVERGREEN_ID, role: evergreenRole });
  expect(error).toBeNull();
  await submitSignIn(page, user.email);
  return user;
}

/**
 * Signs in as the admin of an organization of its own (organizationOfItsOwn in backend.ts), chooses that
 * organization in the header and opens its Users tab.
 */
export async function openUsersOfOwnOrganization(page: Page, own: { organization: { id: string; name: string }; admin: { email: string } }): Promise<void> {
  await signInAsAdmin(page, own.admin.email);
  await page.getByLabel('Managing').selectOption(own.organization.id);
  await page.goto('/admin?tab=users');
  await expect(page.getByLabel('Managing')).toHaveValue(own.organization.id);
  await expect(page.getByText(`Manage staff accounts, roles and invitations of ${own.organization.name}.`)).toBeVisible();
}
