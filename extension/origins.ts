/** Which origins the page bridge serves. Small on purpose: the content script imports it. */

/** Origins a page bridge may speak for: http(s) only, never opaque ("null") ones. */
export function isSiteOrigin(origin: string | undefined): origin is string {
  if (!origin || origin === 'null') return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === origin;
  } catch {
    return false;
  }
}
