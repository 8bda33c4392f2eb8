/**
 * Puts the page bridge (bridge.js, the relay, and page-api.js, `window.toolgate`) into the sites
 * the person turned on, and nowhere else. A site is on while Chrome holds the optional host
 * permission for its exact origin (see site-patterns.ts); the scripts are registered per origin
 * with chrome.scripting, so Chrome injects them there at document_start, and tabs already open on
 * a newly turned-on site get them at once. Every other page has no script of ours: it cannot see
 * Toolgate, message it or wake its worker.
 */

import { serverOrigins } from './server-access.js';
import { originOfPattern, planPageScripts, scriptIds, sitePattern } from './site-patterns.js';

/**
 * The origins the person turned on: exact-origin host permissions Chrome holds for us, but for
 * those granted only to reach a server (server-access.ts), whose pages get no page API.
 */
export async function enabledOrigins(): Promise<string[]> {
  const [{ origins = [] }, servers] = await Promise.all([chrome.permissions.getAll(), serverOrigins()]);
  return origins
    .map(originOfPattern)
    .filter((origin): origin is string => origin !== undefined && !servers.includes(origin));
}

function scriptsFor(origin: string): chrome.scripting.RegisteredContentScript[] {
  const ids = scriptIds(origin);
  const common = {
    matches: [sitePattern(origin)],
    runAt: 'document_start' as const,
    allFrames: false,
    persistAcrossSessions: true,
  };
  // The relay first: the page API's first message must find it listening.
  return [
    { ...common, id: ids.bridge, js: ['bridge.js'], world: 'ISOLATED' },
    { ...common, id: ids.api, js: ['page-api.js'], world: 'MAIN' },
  ];
}

let syncing: Promise<void> = Promise.resolve();

/**
 * Registers the scripts of every turned-on origin and removes those of every other. Changes run one
 * at a time in this worker; an extension page's own sync may race it, so a script that is already
 * registered (or already gone) is not an error.
 */
export function syncPageScripts(): Promise<void> {
  // A failed change does not stop the next one: each reads Chrome's state afresh.
  syncing = syncing
    .catch(() => undefined)
    .then(async () => {
      const [enabled, registered] = await Promise.all([
        enabledOrigins(),
        chrome.scripting.getRegisteredContentScripts(),
      ]);
      const plan = planPageScripts(
        enabled,
        registered.map((script) => script.id),
      );
      if (plan.unregister.length)
        await chrome.scripting.unregisterContentScripts({ ids: plan.unregister }).catch(() => undefined);
      for (const origin of plan.register)
        await chrome.scripting.registerContentScripts(scriptsFor(origin)).catch((error: unknown) => {
          if (!/duplicate/i.test(String((error as Error)?.message))) throw error;
        });
    });
  return syncing;
}

/**
 * Tabs already showing a newly turned-on site get the bridge now, so the person need not reload
 * them. The scripts install themselves once per document, whoever injects them first.
 */
export async function injectIntoOpenTabs(origin: string): Promise<void> {
  const tabs = await chrome.tabs.query({ url: sitePattern(origin) });
  await Promise.all(
    tabs.map(async (tab) => {
      if (tab.id === undefined) return;
      try {
        await chrome.scripting.executeScript({ target: { tabId: tab.id }, files: ['bridge.js'] });
        await chrome.scripting.executeScript({
          target: { tabId: tab.id },
          files: ['page-api.js'],
          world: 'MAIN',
        });
      } catch {
        // The tab moved to a page we may not touch (another site, an error page): nothing to do.
      }
    }),
  );
}
