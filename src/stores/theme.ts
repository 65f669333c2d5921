/**
 * The visitor's theme choice. The head script (src/components/ThemeScript.astro) applies the stored choice before
 * the first paint and names it on `<html data-theme-choice>`; the toggle (src/islands/ThemeToggle.tsx) changes it
 * with `cycleTheme`.
 */

/** The visitor's theme choice; `system` follows the operating system. */
export type Theme = 'system' | 'light' | 'dark';

/** Browser storage key for the choice: `theme`. */
export const THEME_STORAGE_KEY = 'theme';

/** Every choice, in the toggle's cycle order. */
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

/** The choice after `theme` in the toggle's cycle: system → light → dark → system. */
export function nextTheme(theme: Theme): Theme {
  return THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!;
}

/** The toggle's accessible label: what a click will switch to. */
export function themeToggleLabel(theme: Theme): string {
  return `Switch to ${nextTheme(theme)} theme`;
}

/** Reads a stored value, treating anything unknown as `system`. */
export function parseTheme(value: string | null | undefined): Theme {
  return THEMES.includes(value as Theme) ? (value as Theme) : 'system';
}

/** Whether the page should be dark for this choice and the OS preference. */
export function isDark(theme: Theme, prefersDark: boolean): boolean {
  return theme === 'dark' || (theme === 'system' && prefersDark);
}

/**
 * The toggle's click: stores the next choice, names it on `<html data-theme-choice>` (the toggle's icon and label
 * follow in CSS) and applies it. One function for the plain script that answers before the island hydrates
 * (src/scripts/theme-toggle.ts) and for the island, so both cycle alike.
 */
export function cycleTheme(): void {
  const next = nextTheme(parseTheme(localStorage.getItem(THEME_STORAGE_KEY)));
  localStorage.setItem(THEME_STORAGE_KEY, next);
  const root = document.documentElement;
  root.dataset.themeChoice = next;
  root.classList.toggle('dark', isDark(next, matchMedia('(prefers-color-scheme: dark)').matches));
}
