import { describe, expect, it } from 'vitest';
import { isDark, nextTheme, parseTheme, themeToggleLabel, type Theme } from '../../src/stores/theme';

describe('theme cycle', () => {
  it.each<[Theme, Theme, string]>([
    ['system', 'light', 'Switch to light theme'],
    ['light', 'dark', 'Switch to dark theme'],
    ['dark', 'system', 'Switch to system theme'],
  ])('%s goes to %s, labelled "%s"', (current, next, label) => {
    expect(nextTheme(current)).toBe(next);
    expect(themeToggleLabel(current)).toBe(label);
  });

  it.each([[null, 'system'], ['dark', 'dark'], ['light', 'light'], ['purple', 'system']] as const)(
    'reads stored %s as %s',
    (stored, theme) => expect(parseTheme(stored)).toBe(theme),
  );

  it('follows the OS only for system', () => {
    expect(isDark('system', true)).toBe(true);
    expect(isDark('system', false)).toBe(false);
    expect(isDark('light', true)).toBe(false);
    expect(isDark('dark', false)).toBe(true);
  });
});
