/**
 * The content script (isolated world) of the page bridge. It relays the page API's requests to the
 * service worker and the answers back, on the page's own window and at its exact origin. It holds
 * nothing itself: no grants, no log, no tool results beyond the one it is passing back.
 *
 * It runs only on sites the person turned on: registered for them at document_start, or injected
 * into their open tabs when they are turned on (page-scripts.ts). Both can reach one document, so
 * it installs itself once (the flag lives in this extension's isolated world, not the page's).
 */

import { isSiteOrigin } from './origins.js';
import { BRIDGE_TAG, PAGE_PORT, PAGE_TAG } from './page-protocol.js';
import { relayPageTools } from './webmcp-relay.js';

const origin = location.origin;
let port: chrome.runtime.Port | undefined;

const toPage = (payload: Record<string, unknown>) =>
  window.postMessage({ tag: BRIDGE_TAG, ...payload }, origin);

function openPort(): chrome.runtime.Port {
  const current = chrome.runtime.connect({ name: PAGE_PORT });
  current.onMessage.addListener((message: unknown) => toPage({ message }));
  current.onDisconnect.addListener(() => {
    if (port === current) port = undefined;
    // The worker stopped or refused: the page API fails what it was waiting for, and says why.
    toPage({ disconnected: true });
  });
  return current;
}

const installed = globalThis as { toolgateBridgeInstalled?: boolean };

// Opaque ("null") and non-web origins get no bridge: there is no exact origin to answer to.
if (isSiteOrigin(origin) && !installed.toolgateBridgeInstalled) {
  installed.toolgateBridgeInstalled = true;
  // The tab's own WebMCP tools, for the side panel's "This page" (webmcp-relay.ts).
  relayPageTools();
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== window || event.origin !== origin) return;
    const data = event.data as { tag?: unknown; request?: unknown } | null;
    if (data?.tag !== PAGE_TAG) return;
    try {
      port ??= openPort();
      port.postMessage(data.request);
    } catch {
      // The extension was updated or removed under this page: its old content script is cut off.
      const id = (data.request as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string')
        toPage({
          message: {
            id,
            ok: false,
            error: {
              message: 'Toolgate was updated or removed; reload this page to use it.',
              kind: 'bridge-unavailable',
            },
          },
        });
    }
  });
}
