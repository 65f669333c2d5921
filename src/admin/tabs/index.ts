import type { User } from '@supabase/supabase-js';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { URL_CHANGE_EVENT } from '../use-url-param';
import type { Organization } from '../../schemas/organization';

/** What every tab module default-exports: a component rendering the whole tab body. */
export interface AdminTabProps {
  user: User;
  organization: Organization;
}

type TabModule = { default: ComponentType<AdminTabProps> };

/**
 * The tab modules, each its own lazy chunk through `import.meta.glob` (the first screen loads only the tab it
 * shows).
 */
const modules = import.meta.glob<TabModule>('./*Tab.tsx');

/** Ids of the dashboard tabs, in display order; `?tab=<id>` selects one. */
export const ADMIN_TAB_IDS = ['overview', 'users', 'content', 'zimmwriter', 'sessions', 'settings', 'security', 'profile'] as const;
export type AdminTabId = (typeof ADMIN_TAB_IDS)[number];

/** `?tab=zimmwriter&section=test`: the ZimmWriter tab scrolled to its test form, its title field focused. */
export const ZIMMWRITER_TEST_SECTION = 'test';

/** The tab shown when the URL names none (or an unknown one). */
export const DEFAULT_ADMIN_TAB: AdminTabId = 'overview';

/** One dashboard tab: its id in the URL, its label, and its lazily loaded body (null while not installed). */
export interface AdminTab {
  id: AdminTabId;
  label: string;
  Component: LazyExoticComponent<ComponentType<AdminTabProps>> | null;
}

const LABELS: Record<AdminTabId, [label: string, module: string]> = {
  overview: ['Overview', 'OverviewTab'],
  users: ['Users', 'UsersTab'],
  content: ['Content', 'ContentTab'],
  zimmwriter: ['ZimmWriter', 'ZimmWriterTab'],
  sessions: ['Sessions', 'SessionsTab'],
  settings: ['Settings', 'SettingsTab'],
  security: ['Security', 'SecurityTab'],
  profile: ['Profile', 'ProfileTab'],
};

/** The eight tabs, in order. */
export const ADMIN_TABS: readonly AdminTab[] = ADMIN_TAB_IDS.map((id) => {
  const [label, module] = LABELS[id];
  const load = modules[`./${module}.tsx`];
  return { id, label, Component: load ? lazy(load) : null };
});

/** The tab a `?tab=` value selects: the named tab when it exists, else the default. */
export function resolveAdminTab(value: string | null): AdminTabId {
  return ADMIN_TAB_IDS.find((id) => id === value) ?? DEFAULT_ADMIN_TAB;
}

/**
 * Shows a tab as a new history entry. The query string is rebuilt, so a dialog or section open in the
 * previous tab does not follow; `params` are extra parameters for the new tab (e.g. its section).
 */
export function openAdminTab(id: AdminTabId, params: Record<string, string> = {}) {
  const url = new URL(window.location.href);
  url.search = new URLSearchParams({ tab: id, ...params }).toString();
  if (url.href === window.location.href) return;
  window.history.pushState(window.history.state, '', url);
  window.dispatchEvent(new Event(URL_CHANGE_EVENT));
}
