/**
 * The media types a server's images and audio may have in the page, in one place, and where its tool
 * icons may load from: https: or data: URLs of the same image types. Shared by tool results,
 * resources read through resources/read (through components/media.ts) and tool icons.
 *
 * Icons show on the widget's first screen, so this module is eager and kept small: building data
 * URLs, links and downloads (components/media.ts) loads with the views that show results.
 */

import type { Icon } from '../protocol/index.js';

/** Raster types only: SVG can carry script and external references. */
export const ALLOWED_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
]);

export const ALLOWED_AUDIO_TYPES: ReadonlySet<string> = new Set([
  'audio/wav',
  'audio/x-wav',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
  'audio/aac',
  'audio/mp4',
]);

/** The media type without parameters, lower-cased, so the allow-list check cannot be sidestepped. */
export function baseType(mimeType: unknown): string {
  return typeof mimeType === 'string' ? (mimeType.split(';')[0] ?? '').trim().toLowerCase() : '';
}

/** Where a server's tool icon may be loaded from: https:, or a data: URL of an allowed image type. */
export function safeIconSrc(icon: Icon): string | undefined {
  let url: URL;
  try {
    url = new URL(icon.src);
  } catch {
    // Not a URL at all: nothing to load.
    return undefined;
  }
  if (url.protocol === 'data:') {
    const type = baseType(icon.src.slice(5, icon.src.search(/[;,]/)));
    return ALLOWED_IMAGE_TYPES.has(type) ? icon.src : undefined;
  }
  if (url.protocol !== 'https:') return undefined;
  // A declared type must be an allowed one; an undeclared one is left to <img>, which never runs script.
  if (icon.mimeType && !ALLOWED_IMAGE_TYPES.has(baseType(icon.mimeType))) return undefined;
  return url.href;
}
