/**
 * Turning a site on and off, from an extension page (the popup or the side panel). On means Chrome
 * holds the optional host permission for that one origin; Chrome asks the person to confirm, which
 * needs the click that started it, so `turnOnSite` must be the first thing a click handler calls.
 * The worker hears the change (chrome.permissions.onAdded / onRemoved) and registers or removes the
 * page bridge, so it happens even when the popup closes under Chrome's prompt.
 */

import { isSiteOrigin } from './origins.js';
import { enabledOrigins } from './page-scripts.js';
import { forgetServerOrigins, watchServerOrigins } from './server-access.js';
import { sitePattern } from './site-patterns.js';

/** Asks Chrome (and so the person) to let Toolgate put its page API on this origin's pages. */
export async function turnOnSite(origin: string): Promise<boolean> {
  const granted = await chrome.permissions.request({ origins: [sitePattern(origin)] });
  // An origin Toolgate was only let reach as a server becomes a site (the worker hears the change).
  if (granted) await forgetServerOrigins([origin]);
  return granted;
}

/** Takes the origin's permission back; the worker then revokes its tools and closes its pages. */
export function turnOffSite(origin: string): Promise<boolean> {
  return chrome.permissions.remove({ origins: [sitePattern(origin)] });
}

/**
 * The http(s) origin of the tab the person is looking at, when Chrome lets the extension see it:
 * in the popup after a click on the toolbar button (activeTab), or on a site already turned on.
 */
export async function activeTabOrigin(): Promise<string | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (!tab?.url) return undefined;
  try {
    const { origin } = new URL(tab.url);
    return isSiteOrigin(origin) ? origin : undefined;
  } catch {
    // A tab whose address does not parse (a browser page) is not a site.
    return undefined;
  }
}

/** Calls back with the turned-on origins now and after every change; returns the unsubscribe. */
export function watchTurnedOnSites(callback: (origins: string[]) => void): () => void {
  let stopped = false;
  let latest = 0;
  const read = () => {
    const reading = ++latest;
    void enabledOrigins().then((origins) => {
      // Only the newest reading counts: an older one may finish after it.
      if (stopped || reading !== latest) return;
      callback(origins);
    });
  };
  read();
  chrome.permissions.onAdded.addListener(read);
  chrome.permissions.onRemoved.addListener(read);
  // Origins granted only to reach servers are not sites; the record changes apart from permissions.
  const stopWatchingServers = watchServerOrigins(read);
  return () => {
    stopped = true;
    stopWatchingServers();
    chrome.permissions.onAdded.removeListener(read);
    chrome.permissions.onRemoved.removeListener(read);
  };
}
