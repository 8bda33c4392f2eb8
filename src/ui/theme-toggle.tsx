/**
 * The panel's dark-theme switch. Until the person uses it the panel follows the host element's
 * `theme` attribute, else the system (prefers-color-scheme). Their choice is kept per page
 * (localStorage, keyed by the path: a site may embed the panel in pages of different looks); the
 * panel sets it as data-theme on .tg-root, whose color-scheme then picks the dark or light side of
 * every colour token (styles.ts). A toggle button: its pressed state is what assistive technology
 * announces.
 */

import { useEffect, useRef, useState } from 'preact/hooks';

type Theme = 'light' | 'dark';

const DARK = '(prefers-color-scheme: dark)';
const storageKey = () => `toolgate-theme:${location.pathname}`;

/** The stored choice; none where storage is refused (a sandboxed frame, storage switched off). */
function storedTheme(): Theme | undefined {
  try {
    const value = localStorage.getItem(storageKey());
    return value === 'light' || value === 'dark' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The person's choice, read once at the start (so the first paint has it), and how to change it. */
export function useThemeChoice(): [Theme | undefined, (theme: Theme) => void] {
  const [chosen, setChosen] = useState(storedTheme);
  const choose = (theme: Theme) => {
    setChosen(theme);
    try {
      localStorage.setItem(storageKey(), theme);
    } catch {
      // Not kept: the choice lasts while the panel is open.
    }
  };
  return [chosen, choose];
}

export function ThemeToggle({
  chosen,
  choose,
}: {
  chosen: Theme | undefined;
  choose: (theme: Theme) => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const [systemDark, setSystemDark] = useState(() => matchMedia(DARK).matches);
  const [hostTheme, setHostTheme] = useState<string | null>(null);
  useEffect(() => {
    const place = button.current?.getRootNode();
    if (place instanceof ShadowRoot) setHostTheme(place.host.getAttribute('theme'));
    const media = matchMedia(DARK);
    const follow = () => setSystemDark(media.matches);
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);
  const theme = chosen ?? hostTheme;
  const dark = theme === 'dark' || (theme !== 'light' && systemDark);
  return (
    <button ref={button} type="button" aria-pressed={dark} onClick={() => choose(dark ? 'light' : 'dark')}>
      Dark theme
    </button>
  );
}
