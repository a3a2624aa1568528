/**
 * Light and dark themes. The default follows the system (`prefers-color-scheme`); the header's
 * toggle pins one, remembered in localStorage (when the page may use it: file:// pages may not).
 * The theme is `data-theme` on <html>; styles.css defines both palettes, each meeting WCAG AA.
 */
import { useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';

const KEY = 'servicegym-view-theme';

function stored(): Theme | null {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Applies the remembered or system theme before the first paint (called from main.tsx). */
export function applyInitialTheme(): void {
  document.documentElement.dataset.theme = stored() ?? systemTheme();
}

/** A button that switches between the light and the dark theme. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => (document.documentElement.dataset.theme as Theme) ?? 'light');
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="theme-toggle"
      data-testid="theme-toggle"
      aria-pressed={theme === 'dark'}
      onClick={() => {
        setTheme(next);
        try {
          window.localStorage.setItem(KEY, next);
        } catch {
          /* file:// pages may not store; the choice lasts for this page */
        }
      }}
    >
      {theme === 'dark' ? 'Light theme' : 'Dark theme'}
    </button>
  );
}
