import { THEMES, cycleTheme, themeToggleLabel, type Theme } from '../stores/theme';

/**
 * Per choice, the classes that show its icon and label when `<html data-theme-choice>` names it (written out
 * whole, so Tailwind finds them).
 */
const SHOWN_FOR: Record<Theme, string> = {
  system: 'hidden in-data-[theme-choice=system]:contents',
  light: 'hidden in-data-[theme-choice=light]:contents',
  dark: 'hidden in-data-[theme-choice=dark]:contents',
};

/**
 * Cycles system → light → dark and remembers the choice in localStorage under `theme`. The button holds every
 * choice's icon and label, and CSS shows the one `<html data-theme-choice>` names (the head script sets it before
 * the first paint), so the toggle has no state of its own: a click reads the stored choice and writes the next
 * one. Until the island hydrates (`client:interaction`), src/scripts/theme-toggle.ts answers the clicks on the
 * server's markup (`data-theme-toggle`) with the same `cycleTheme`, so the hydrated island carries on from there.
 */
export default function ThemeToggle() {
  return (
    <button
      type="button"
      data-theme-toggle
      onClick={cycleTheme}
      className="inline-flex h-10 w-10 items-center justify-center rounded-full border border-border text-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
    >
      {THEMES.map((theme) => (
        <span key={theme} className={SHOWN_FOR[theme]}>
          <ThemeIcon theme={theme} />
          <span className="sr-only">{themeToggleLabel(theme)}</span>
        </span>
      ))}
    </button>
  );
}

function ThemeIcon({ theme }: { theme: Theme }) {
  const common = { width: 20, height: 20, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, 'aria-hidden': true } as const;
  if (theme === 'light') {
    return (
      <svg {...common}>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    );
  }
  if (theme === 'dark') {
    return (
      <svg {...common}>
        <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <rect x="2" y="3" width="20" height="14" rx="2" />
      <path d="M8 21h8M12 17v4" />
    </svg>
  );
}
