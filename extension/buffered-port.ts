/**
 * A runtime port whose messages wait until the worker is ready to serve it. Chrome delivers a
 * port's messages as soon as it connects; a worker that is still opening its database would
 * otherwise drop a page's first request.
 */

import type { ChromeRuntimePort } from '../src/transport/index.js';

export interface BufferedPort extends ChromeRuntimePort {
  /** Hands the buffered messages to the listeners added since, then passes messages straight through. */
  release(): void;
}

export function bufferPort(port: ChromeRuntimePort): BufferedPort {
  const queued: unknown[] = [];
  let released = false;
  const listeners = new Set<(message: unknown, port: ChromeRuntimePort) => void>();
  port.onMessage.addListener((message) => {
    if (!released) queued.push(message);
    else for (const listener of listeners) listener(message, port);
  });
  return {
    get name() {
      return port.name;
    },
    postMessage: (message) => port.postMessage(message),
    disconnect: () => port.disconnect(),
    onDisconnect: port.onDisconnect,
    onMessage: {
      addListener: (listener) => listeners.add(listener),
      removeListener: (listener) => listeners.delete(listener),
    },
    release() {
      if (released) return;
      released = true;
      for (const message of queued.splice(0)) for (const listener of listeners) listener(message, port);
    },
  };
}
