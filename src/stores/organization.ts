/**
 * `$organization`: the signed-in user's organizations and the one being managed (spec public-site 4).
 * Loaded on sign-in from the memberships, the preferred one (localStorage `preferredOrganization`) chosen
 * when it is in the list, else the first; the fallback organization when loading fails; cleared on
 * sign-out. Starts from fixed defaults; storage is read only after mount (hydration, TOOLCHAIN.md).
 */
import { atom } from 'nanostores';
import { FALLBACK_ORGANIZATION, type Organization } from '../lib/host-match.ts';
import { listMemberOrganizations } from '../lib/memberships.ts';
import { supabaseBrowser } from '../lib/supabase-browser.ts';
import { $session } from './session.ts';
import { toast } from './toast.ts';

/** localStorage key of the chosen organization's id (spec public-site 3). */
export const PREFERRED_ORGANIZATION_KEY = 'preferredOrganization';

export interface OrganizationState {
  loading: boolean;
  current: Organization | null;
  list: Organization[];
}

export const INITIAL_ORGANIZATION_STATE: OrganizationState = { loading: true, current: null, list: [] };

export const $organization = atom<OrganizationState>(INITIAL_ORGANIZATION_STATE);

/** The preferred organization when the list has it, else the first, else none. */
export function chooseOrganization(list: readonly Organization[], preferredId: string | null): Organization | null {
  return list.find((org) => org.id === preferredId) ?? list[0] ?? null;
}

/** The 'Organization switched' toast. */
export function switchedNotice(organization: Pick<Organization, 'name'>) {
  return { title: 'Organization switched', description: `Now viewing ${organization.name}` };
}

let loadedFor: string | null = null;

/** Loads the user's organizations and picks the current one; the fallback organization when that fails. */
export async function loadOrganizations(userId: string): Promise<void> {
  loadedFor = userId;
  $organization.set({ ...$organization.get(), loading: true });
  try {
    const list = await listMemberOrganizations(supabaseBrowser(), userId);
    if (loadedFor !== userId) return; // signed out or switched user meanwhile
    const current = chooseOrganization(list, localStorage.getItem(PREFERRED_ORGANIZATION_KEY));
    $organization.set({ loading: false, current, list });
  } catch (error) {
    console.error('Organizations could not be loaded; using the fallback organization.', error);
    if (loadedFor === userId) $organization.set({ loading: false, current: FALLBACK_ORGANIZATION, list: [] });
  }
}

/** Makes another organization of the list current, remembers it and says so. */
export function switchOrganization(id: string): void {
  const state = $organization.get();
  const next = state.list.find((org) => org.id === id);
  if (!next) throw new Error(`Organization ${id} is not one of the user's organizations`);
  $organization.set({ ...state, current: next });
  localStorage.setItem(PREFERRED_ORGANIZATION_KEY, next.id);
  toast(switchedNotice(next));
}

/** Forgets the organizations (sign-out). */
export function clearOrganizations(): void {
  loadedFor = null;
  $organization.set({ loading: false, current: null, list: [] });
}

let started = false;

/** Follows `$session`: loads on sign-in (or another user), clears on sign-out. Once per page. */
export function startOrganizationSync(): void {
  if (started) return;
  started = true;
  $session.subscribe((session) => {
    if (session.status === 'signed-out') clearOrganizations();
    const userId = session.session?.user.id;
    if (session.status === 'signed-in' && userId && userId !== loadedFor) void loadOrganizations(userId);
  });
}
