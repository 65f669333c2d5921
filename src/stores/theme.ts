import { atom } from 'nanostores';

/** The visitor's theme choice; `system` follows the operating system. */
export type Theme = 'system' | 'light' | 'dark';

/** Browser storage key for the choice (spec: "stored under a key named theme"). */
export const THEME_STORAGE_KEY = 'theme';

const order: Theme[] = ['system', 'light', 'dark'];

/** The choice after `theme` in the toggle's cycle: system → light → dark → system. */
export function nextTheme(theme: Theme): Theme {
  return order[(order.indexOf(theme) + 1) % order.length]!;
}

/** The toggle's accessible label: what a click will switch to. */
export function themeToggleLabel(theme: Theme): string {
  return `Switch to ${nextTheme(theme)} theme`;
}

/** Reads a stored value, treating anything unknown as `system`. */
export function parseTheme(value: string | null | undefined): Theme {
  return order.includes(value as Theme) ? (value as Theme) : 'system';
}

/**
 * Starts at `system` on the server and at first render; the island reads storage on mount,
 * because reading it while creating the store makes hydration disagree (React error #418).
 */
export const $theme = atom<Theme>('system');

/** Whether the page should be dark for this choice and the OS preference. */
export function isDark(theme: Theme, prefersDark: boolean): boolean {
  return theme === 'dark' || (theme === 'system' && prefersDark);
}
