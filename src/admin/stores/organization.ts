/**
 * `$organization`: the organizations the signed-in user manages in the back office (their active
 * memberships, with the role in each) and the one chosen in the admin header. The choice is remembered per
 * browser (localStorage `preferredOrganization`); without one, the organization the site was built for, else
 * the first the user administers, else the first (chooseOrganization). Every back-office screen acts on
 * `current` and checks the role in `current`, never another organization. Loaded when the session signs in,
 * cleared on sign-out; storage is read only after mount (the server-rendered HTML has no storage, so reading it earlier breaks hydration).
 */
import { atom } from 'nanostores';
import {
  chooseOrganization, listMemberOrganizations, PREFERRED_ORGANIZATION_KEY, siteOrganizationId, type MemberOrganization,
} from '../../lib/back-office/memberships.ts';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser.ts';
import { $session } from './session.ts';
import { toast } from '../../stores/toast.ts';

export interface OrganizationState {
  /** True until the memberships of the signed-in user are read. */
  loading: boolean;
  /** True when they could not be read: nothing is managed rather than the wrong organization. */
  failed: boolean;
  current: MemberOrganization | null;
  list: MemberOrganization[];
}

export const INITIAL_ORGANIZATION_STATE: OrganizationState = { loading: true, failed: false, current: null, list: [] };

export const $organization = atom<OrganizationState>(INITIAL_ORGANIZATION_STATE);

/** The 'Organization switched' toast. */
export function switchedNotice(organization: Pick<MemberOrganization, 'name'>) {
  return { title: 'Organization switched', description: `Now viewing ${organization.name}` };
}

let loadedFor: string | null = null;

/** Loads the user's organizations and picks the one to manage. */
export async function loadOrganizations(userId: string): Promise<void> {
  loadedFor = userId;
  $organization.set({ ...$organization.get(), loading: true });
  try {
    const list = await listMemberOrganizations(supabaseBrowser(), userId);
    if (loadedFor !== userId) return; // signed out or switched user meanwhile
    const current = chooseOrganization(list, localStorage.getItem(PREFERRED_ORGANIZATION_KEY), siteOrganizationId());
    $organization.set({ loading: false, failed: false, current, list });
  } catch (error) {
    console.error('The organizations could not be loaded.', error);
    if (loadedFor === userId) $organization.set({ loading: false, failed: true, current: null, list: [] });
  }
}

/** Makes another organization of the list the managed one, remembers it and says so; returns it. */
export function switchOrganization(id: string): MemberOrganization {
  const state = $organization.get();
  const next = state.list.find((org) => org.id === id);
  if (!next) throw new Error(`Organization ${id} is not one of the user's organizations`);
  $organization.set({ ...state, current: next });
  localStorage.setItem(PREFERRED_ORGANIZATION_KEY, next.id);
  toast(switchedNotice(next));
  return next;
}

/** Remembers an organization as the one to manage next time (after accepting an invitation to it, say). */
export function preferOrganization(id: string): void {
  localStorage.setItem(PREFERRED_ORGANIZATION_KEY, id);
}

/** Forgets the organizations (sign-out). */
export function clearOrganizations(): void {
  loadedFor = null;
  $organization.set({ loading: false, failed: false, current: null, list: [] });
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
