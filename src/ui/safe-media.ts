/**
 * What a server's media may become in the page, in one place: images and audio only as data URLs of
 * allow-listed types built from base64 we checked, icons only from https: or data: URLs of the same
 * image types, links only to http(s), anything else only as a download the browser never renders.
 * Shared by tool results, resources read through resources/read, and tool icons.
 */

import type { Icon } from '../protocol/types.js';

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

/** The URL when it is http(s); anything else (javascript:, data:, file:, custom schemes) is not opened. */
export function safeHttpUrl(uri: string): URL | undefined {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    // Not a URL at all: nothing to open.
    return undefined;
  }
}

/** The media type without parameters, lower-cased, so the allow-list check cannot be sidestepped. */
export function baseType(mimeType: unknown): string {
  return typeof mimeType === 'string' ? (mimeType.split(';')[0] ?? '').trim().toLowerCase() : '';
}

/** Base64 alphabet only: nothing that could end the data URL early or smuggle in another part. */
export function isBase64(data: unknown): data is string {
  return (
    typeof data === 'string' && data.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(data.replace(/\s+/g, ''))
  );
}

/** Bytes that base64 text decodes to. */
export function base64Bytes(base64: string): number {
  const clean = base64.replace(/\s+/g, '');
  return Math.floor((clean.length * 3) / 4) - (clean.match(/=+$/)?.[0].length ?? 0);
}

/**
 * Saves the bytes as application/octet-stream through an object URL made on click: a blob may be
 * HTML or script, and typed that way the browser only ever downloads it, never renders it.
 */
export function download(base64: string, uri: string): void {
  let binary: string;
  try {
    binary = atob(base64.replace(/\s+/g, ''));
  } catch {
    // Not base64: there are no bytes to save, so nothing is downloaded.
    return;
  }
  const data = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
  const href = URL.createObjectURL(new Blob([data], { type: 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName(uri);
  link.rel = 'noopener';
  link.click();
  // The download has started by now; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
}

/** The URI's last path segment, stripped of characters file systems dislike. */
export function fileName(uri: string): string {
  const last = uri.split(/[/\\]/).pop() ?? '';
  const clean = last.replace(/[?#].*$/, '').replace(/[^\w.-]+/g, '_');
  return clean.replace(/^\.+/, '') || 'resource.bin';
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
