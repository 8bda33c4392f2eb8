/**
 * The worker side of worker-peer.ts: inside a dedicated Web Worker, hands the application one
 * MessagePortTransport per `mcp-connect` from the page that owns the worker.
 */

import { MessagePortTransport } from './message-port.js';
import { isConnectMessage } from './post-message-protocol.js';

export function acceptWorkerClients(
  onConnection: (transport: MessagePortTransport) => void,
  scope: EventTarget = globalThis,
): () => void {
  const listener = (event: Event) => {
    const { data, ports } = event as MessageEvent;
    const port = ports[0];
    // Only the owner can post to a dedicated worker: the message shape is all there is to check.
    if (!isConnectMessage(data) || !port) return;
    onConnection(new MessagePortTransport(port, { label: 'the page', peer: 'page' }));
  };
  scope.addEventListener('message', listener);
  return () => scope.removeEventListener('message', listener);
}
