/**
 * The panel's dark-theme switch. Until the person uses it the panel follows the host element's
 * `theme` attribute, else the system (prefers-color-scheme). Their choice is kept per page
 * (localStorage, keyed by the path: a site may embed the panel in pages of different looks) and set
 * as data-tg-theme on the host element, where the colour tokens are chosen (styles.ts); a host
 * page's own token overrides still apply over it. A toggle button: its pressed state is what
 * assistive technology announces.
 */

import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';

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

/** The element the panel's shadow root is attached to (none when rendered in a plain page). */
const hostOf = (element: Element | null | undefined) => {
  const place = element?.getRootNode();
  return place instanceof ShadowRoot ? place.host : undefined;
};

/**
 * The person's choice, read once at the start and applied to the host before the first paint (so a
 * dark choice never flashes light), and how to change it.
 */
export function useThemeChoice(
  root: RefObject<HTMLElement | null>,
): [Theme | undefined, (theme: Theme) => void] {
  const [chosen, setChosen] = useState(storedTheme);
  useLayoutEffect(() => {
    const host = hostOf(root.current);
    if (chosen) host?.setAttribute('data-tg-theme', chosen);
    else host?.removeAttribute('data-tg-theme');
  }, [chosen]);
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
  root,
  chosen,
  choose,
}: {
  root: RefObject<HTMLElement | null>;
  chosen: Theme | undefined;
  choose: (theme: Theme) => void;
}) {
  const [systemDark, setSystemDark] = useState(() => matchMedia(DARK).matches);
  const [hostTheme, setHostTheme] = useState<string | null>(null);
  useEffect(() => {
    setHostTheme(hostOf(root.current)?.getAttribute('theme') ?? null);
    const media = matchMedia(DARK);
    const follow = () => setSystemDark(media.matches);
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);
  const theme = chosen ?? hostTheme;
  const dark = theme === 'dark' || (theme !== 'light' && systemDark);
  return (
    <button type="button" aria-pressed={dark} onClick={() => choose(dark ? 'light' : 'dark')}>
      {/* The state for the eye; the pressed state says it to assistive technology. */}
      <span aria-hidden="true">{dark ? '☾ ' : '☀ '}</span>
      Dark theme
    </button>
  );
}
