import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $theme, THEME_STORAGE_KEY, isDark, nextTheme, parseTheme, themeToggleLabel, type Theme } from '../stores/theme';

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

function apply(theme: Theme) {
  document.documentElement.classList.toggle('dark', isDark(theme, darkQuery().matches));
}

/** Cycles system → light → dark and remembers the choice in localStorage under `theme`. */
export default function ThemeToggle() {
  const theme = useStore($theme);

  useEffect(() => {
    $theme.set(parseTheme(localStorage.getItem(THEME_STORAGE_KEY)));
    const media = darkQuery();
    const follow = () => apply($theme.get());
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);

  function toggle() {
    const next = nextTheme(theme);
    $theme.set(next);
    localStorage.setItem(THEME_STORAGE_KEY, next);
    apply(next);
  }

  const label = themeToggleLabel(theme);
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={label}
      title={label}
      data-theme-choice={theme}
      className="inline-flex h-10 w-10 items-center justify-center rounded-full border border-border text-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
    >
      <ThemeIcon theme={theme} />
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
