import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Organization } from '../../../src/lib/host-match';
import {
  $organization,
  chooseOrganization,
  clearOrganizations,
  INITIAL_ORGANIZATION_STATE,
  PREFERRED_ORGANIZATION_KEY,
  switchOrganization,
} from '../../../src/stores/organization';
import { $toast, dismissToast } from '../../../src/stores/toast';

const org = (id: string, name: string): Organization => ({ id, name, slug: id, domain: null, settings: {} });
const scalePro = org('scale-pro', 'Scale Pro Marketing');
const evergreen = org('evergreen', 'Evergreen Landscaping');

afterEach(() => {
  vi.unstubAllGlobals();
  dismissToast();
  $organization.set(INITIAL_ORGANIZATION_STATE);
});

describe('chooseOrganization', () => {
  it.each<[string, Organization[], string | null, Organization | null]>([
    ['the preferred one when listed', [scalePro, evergreen], 'evergreen', evergreen],
    ['the first when the preferred one is not listed', [scalePro, evergreen], 'gone', scalePro],
    ['the first without a preference', [evergreen, scalePro], null, evergreen],
    ['none for an empty list', [], 'evergreen', null],
  ])('%s', (_case, list, preferred, expected) => {
    expect(chooseOrganization(list, preferred)).toBe(expected);
  });
});

describe('switchOrganization', () => {
  it('sets the current organization, remembers it and says so', () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('localStorage', { setItem: (key: string, value: string) => stored.set(key, value) });
    $organization.set({ loading: false, current: scalePro, list: [scalePro, evergreen] });

    switchOrganization('evergreen');

    expect($organization.get().current).toBe(evergreen);
    expect(stored.get(PREFERRED_ORGANIZATION_KEY)).toBe('evergreen');
    expect($toast.get()).toMatchObject({ title: 'Organization switched', description: 'Now viewing Evergreen Landscaping' });
  });

  it('refuses an organization the user does not belong to', () => {
    $organization.set({ loading: false, current: scalePro, list: [scalePro] });
    expect(() => switchOrganization('evergreen')).toThrow(/not one of the user's organizations/);
  });
});

describe('clearOrganizations', () => {
  it('forgets everything and stops loading', () => {
    $organization.set({ loading: true, current: scalePro, list: [scalePro] });
    clearOrganizations();
    expect($organization.get()).toEqual({ loading: false, current: null, list: [] });
  });
});
