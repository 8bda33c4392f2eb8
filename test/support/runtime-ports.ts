/**
 * An in-memory pair of runtime ports for unit tests: a test double, because chrome.runtime exists
 * only inside a loaded extension (the e2e suite covers the real ports). Messages are JSON-copied,
 * as Chrome does, and delivered asynchronously.
 */

import type { ChromeEvent, ChromeRuntimePort } from '../../src/transport/chrome-port.js';

function event<Listener extends (...args: never[]) => void>() {
  const listeners = new Set<Listener>();
  const api: ChromeEvent<Listener> = {
    addListener: (listener) => listeners.add(listener),
    removeListener: (listener) => listeners.delete(listener),
  };
  return {
    api,
    emit: (...args: Parameters<Listener>) => {
      for (const listener of [...listeners]) listener(...args);
    },
  };
}

export function portPair(name = 'test'): [ChromeRuntimePort, ChromeRuntimePort] {
  const make = () => ({
    message: event<(message: unknown, port: ChromeRuntimePort) => void>(),
    disconnect: event<(port: ChromeRuntimePort) => void>(),
  });
  const sides = [make(), make()] as const;
  let open = true;
  const ports: ChromeRuntimePort[] = [0, 1].map((index) => {
    const self = sides[index]!;
    const other = sides[1 - index]!;
    const port: ChromeRuntimePort = {
      name,
      postMessage(message) {
        if (!open) throw new Error('Attempting to use a disconnected port object');
        const copy = JSON.parse(JSON.stringify(message)) as unknown;
        queueMicrotask(() => open && other.message.emit(copy, ports[1 - index]!));
      },
      disconnect() {
        if (!open) return;
        open = false;
        // Chrome tells only the other end.
        queueMicrotask(() => other.disconnect.emit(ports[1 - index]!));
      },
      onMessage: self.message.api,
      onDisconnect: self.disconnect.api,
    };
    return port;
  });
  return [ports[0]!, ports[1]!];
}
