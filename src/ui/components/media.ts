/**
 * What a server's media may become in the page: images and audio only as data URLs of the types
 * ui/safe-media.ts allows, built from base64 we checked; links only to http(s); anything else only
 * as a download the browser never renders. Shared by tool results and resources read through
 * resources/read (loaded with them, not on the first screen).
 */

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
