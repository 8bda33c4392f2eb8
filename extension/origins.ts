/** Which origins the page bridge serves. Small on purpose: the content script imports it. */

/** Origins a page bridge may speak for: http(s) only, never opaque ("null") ones. */
export function isSiteOrigin(origin: string | undefined): origin is string {
  if (!origin || origin === 'null') return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
  } catch {
    // Not a URL: not a web origin.
    return false;
  }
}

/**
 * True when the origin's host is this machine (localhost, *.localhost, 127.0.0.0/8, [::1]): plain
 * http there never crosses a network, so nobody between can read or change it.
 */
export function isLoopbackOrigin(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    // Not a URL: not a loopback origin.
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** True for http:// origins whose traffic crosses a network: readable and changeable on the way. */
export function isInsecureRemoteOrigin(origin: string): boolean {
  return origin.startsWith('http:') && !isLoopbackOrigin(origin);
}
