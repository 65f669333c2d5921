import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseOrganization, landingPath, PREFERRED_ORGANIZATION_KEY, roleMayOpen, type MemberOrganization, type MemberRole } from '../../../../src/lib/back-office/memberships';
import { $organization, clearOrganizations, INITIAL_ORGANIZATION_STATE, switchOrganization } from '../../../../src/admin/stores/organization';
import { $toast, dismissToast } from '../../../../src/stores/toast';

const org = (id: string, name: string, role: MemberRole): MemberOrganization => ({ id, name, slug: id, domain: null, settings: {}, role });
const scalePro = org('scale-pro', 'Scale Pro Marketing', 'viewer');
const evergreen = org('evergreen', 'Evergreen Landscaping', 'admin');
const acme = org('acme', 'Acme', 'editor');

afterEach(() => {
  vi.unstubAllGlobals();
  dismissToast();
  $organization.set(INITIAL_ORGANIZATION_STATE);
});

describe('chooseOrganization', () => {
  it.each<[string, MemberOrganization[], string | null, string | null, MemberOrganization | null]>([
    ['the preferred one when listed', [acme, scalePro, evergreen], 'scale-pro', 'acme', scalePro],
    ['else the site organization', [acme, scalePro, evergreen], 'gone', 'scale-pro', scalePro],
    ['else the first one the user administers', [acme, scalePro, evergreen], null, 'elsewhere', evergreen],
    ['else the first', [acme, scalePro], null, null, acme],
    ['none for an empty list', [], 'evergreen', 'evergreen', null],
  ])('%s', (_case, list, preferred, site, expected) => {
    expect(chooseOrganization(list, preferred, site)).toBe(expected);
  });
});

describe('where each role works', () => {
  it('lands admins on the dashboard, editors and viewers in blog management', () => {
    expect(landingPath('admin')).toBe('/admin');
    expect(landingPath('editor')).toBe('/admin/blog');
    expect(landingPath('viewer')).toBe('/admin/blog');
  });

  it.each<[MemberRole, string, boolean]>([
    ['admin', '/admin', true],
    ['admin', '/admin/blog/edit/1', true],
    ['editor', '/admin/blog', true],
    ['viewer', '/admin/blog/preview/1', true],
    ['editor', '/admin', false],
    ['viewer', '/admin/blogger', false],
    ['viewer', '/admin/media', true],
    ['editor', '/admin/media/', true],
    ['viewer', '/admin/mediakit', false],
    ['viewer', '/admin/profile', true],
    ['editor', '/admin/profiles', false],
    ['viewer', '/admin/sites', true],
    ['editor', '/admin/sitesx', false],
  ])('%s may open %s: %s', (role, path, expected) => {
    expect(roleMayOpen(role, path)).toBe(expected);
  });
});

describe('switchOrganization', () => {
  it('sets the managed organization, remembers it and says so', () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('localStorage', { setItem: (key: string, value: string) => stored.set(key, value) });
    $organization.set({ loading: false, failed: false, current: scalePro, list: [scalePro, evergreen] });

    expect(switchOrganization('evergreen')).toBe(evergreen);

    expect($organization.get().current).toBe(evergreen);
    expect(stored.get(PREFERRED_ORGANIZATION_KEY)).toBe('evergreen');
    expect($toast.get()).toMatchObject({ title: 'Organization switched', description: 'Now viewing Evergreen Landscaping' });
  });

  it('refuses an organization the user does not belong to', () => {
    $organization.set({ loading: false, failed: false, current: scalePro, list: [scalePro] });
    expect(() => switchOrganization('evergreen')).toThrow(/not one of the user's organizations/);
  });
});

describe('clearOrganizations', () => {
  it('forgets everything and stops loading', () => {
    $organization.set({ loading: true, failed: false, current: scalePro, list: [scalePro] });
    clearOrganizations();
    expect($organization.get()).toEqual({ loading: false, failed: false, current: null, list: [] });
  });
});
