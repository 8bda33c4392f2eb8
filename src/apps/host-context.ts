/**
 * The host context a View gets in its `ui/initialize` answer (and changes of it later): theme,
 * display mode, sizes, locale, time zone, platform and the tool that opened it.
 */

import type { Tool } from '../protocol/index.js';
import type { DisplayMode } from './spec.js';

export interface HostContext {
  toolInfo?: { tool: Tool };
  theme?: 'light' | 'dark';
  displayMode?: DisplayMode;
  availableDisplayModes?: DisplayMode[];
  containerDimensions?: { maxHeight?: number; width?: number; maxWidth?: number; height?: number };
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
}

const DARK = '(prefers-color-scheme: dark)';

function matches(query: string): boolean | undefined {
  return typeof matchMedia === 'function' ? matchMedia(query).matches : undefined;
}

/** The modes Toolgate shows Views in: inline, or full screen over the page (never picture-in-picture). */
const OFFERED_DISPLAY_MODES: DisplayMode[] = ['inline', 'fullscreen'];

/** The context for a View opened by `tool`, as this page is now. */
export function hostContextFor(tool: Tool, maxHeight: number): HostContext {
  const touch = matches('(pointer: coarse)');
  const hover = matches('(hover: hover)');
  return {
    toolInfo: { tool },
    theme: matches(DARK) ? 'dark' : 'light',
    displayMode: 'inline',
    availableDisplayModes: [...OFFERED_DISPLAY_MODES],
    containerDimensions: { maxHeight },
    ...(typeof navigator !== 'undefined' ? { locale: navigator.language } : {}),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: 'Toolgate',
    platform: 'web',
    ...(touch !== undefined && hover !== undefined ? { deviceCapabilities: { touch, hover } } : {}),
  };
}

/** Calls `listener` when the page switches between light and dark; returns the unsubscribe function. */
export function onThemeChange(listener: (theme: 'light' | 'dark') => void): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia(DARK);
  const changed = () => listener(query.matches ? 'dark' : 'light');
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}
