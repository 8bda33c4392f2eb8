/**
 * Servers that send no CORS headers: a web page can never read their answers, but an extension
 * holding a host permission for a server's origin fetches it without CORS. The person grants that
 * per origin, from a click in the side panel ("Allow Toolgate to reach <origin>"), and can take it
 * back in the Sites tab.
 *
 * The permission is the same optional host permission that turns a site on (Chrome has one kind),
 * so the origins granted to reach servers are recorded here, and the page bridge leaves them out
 * (page-scripts.ts, site-switch.ts): reaching a server never puts Toolgate's page API on its pages.
 * A site the person turns on covers its servers too; turning it on removes it from this record.
 */

import { isSiteOrigin } from './origins.js';
import { sitePattern } from './site-patterns.js';

/** chrome.storage.local key: the origins granted only to reach servers. */
export const SERVER_ORIGINS_KEY = 'server-origins';

/** The origins the person let Toolgate reach as servers (not sites). */
export async function serverOrigins(): Promise<string[]> {
  const value = (await chrome.storage.local.get(SERVER_ORIGINS_KEY))[SERVER_ORIGINS_KEY];
  return Array.isArray(value) ? value.filter((origin): origin is string => isSiteOrigin(origin)) : [];
}

async function saveServerOrigins(origins: readonly string[]): Promise<void> {
  await chrome.storage.local.set({ [SERVER_ORIGINS_KEY]: [...new Set(origins)].sort() });
}

/**
 * Asks Chrome (and so the person) to let Toolgate reach `origin`; call it first thing in the
 * click. The record is written before the grant can arrive, so the worker, hearing the new
 * permission, never mistakes the server for a site; a refusal takes the record back.
 */
export async function allowServerOrigin(origin: string, current: readonly string[]): Promise<boolean> {
  const recorded = saveServerOrigins([...current, origin]);
  // Not awaited before the request: Chrome grants permissions only during the person's click.
  const granting = chrome.permissions.request({ origins: [sitePattern(origin)] });
  await recorded;
  const granted = await granting.catch(() => false);
  if (!granted) await forgetServerOrigins([origin]);
  return granted;
}

/** Takes the permission back (the server is refused again) and forgets the record. */
export async function revokeServerOrigin(origin: string): Promise<void> {
  await chrome.permissions.remove({ origins: [sitePattern(origin)] });
  await forgetServerOrigins([origin]);
}

/** Drops origins from the record: their permission is gone, or they became sites. */
export async function forgetServerOrigins(origins: readonly string[]): Promise<void> {
  const now = await serverOrigins();
  const next = now.filter((origin) => !origins.includes(origin));
  if (next.length !== now.length) await saveServerOrigins(next);
}

/** Calls back with the server origins now and after every change; returns the unsubscribe. */
export function watchServerOrigins(callback: (origins: string[]) => void): () => void {
  let stopped = false;
  const read = () =>
    void serverOrigins().then((origins) => {
      if (!stopped) callback(origins);
    });
  const onChanged = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
    if (area === 'local' && SERVER_ORIGINS_KEY in changes) read();
  };
  read();
  chrome.storage.onChanged.addListener(onChanged);
  return () => {
    stopped = true;
    chrome.storage.onChanged.removeListener(onChanged);
  };
}
