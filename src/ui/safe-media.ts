/** Which server-supplied URLs the widget may load: icons only from https: or data: images of safe types. */

import type { Icon } from '../protocol/types.js';

/** Raster types only: SVG can carry script and external references. */
export const SAFE_ICON_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

export function safeIconSrc(icon: Icon): string | undefined {
  let url: URL;
  try {
    url = new URL(icon.src);
  } catch {
    return undefined;
  }
  if (url.protocol === 'data:') {
    const type = icon.src.slice(5, icon.src.search(/[;,]/)).toLowerCase();
    return SAFE_ICON_TYPES.has(type) ? icon.src : undefined;
  }
  if (url.protocol !== 'https:') return undefined;
  // A declared type must be a safe one; an undeclared one is left to <img>, which never runs script.
  if (icon.mimeType && !SAFE_ICON_TYPES.has(icon.mimeType.toLowerCase())) return undefined;
  return url.href;
}
