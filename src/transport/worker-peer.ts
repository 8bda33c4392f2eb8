/**
 * An MCP server in a dedicated Web Worker: the page hands the worker one end of a MessageChannel
 * with the same `mcp-connect` message the window handshake uses, and speaks JSON-RPC on the other.
 * A dedicated worker hears only its owner, so there is no origin to check; it runs at the page's
 * origin without DOM access. The worker side is acceptWorkerClients() (worker-server.ts).
 */

import { TransportError } from '../protocol/index.js';
import { MessagePortTransport } from './message-port.js';
import { connectMessage } from './post-message-protocol.js';
import type { Transport } from './transport.js';

export interface WorkerPeer {
  transport: Transport;
  /** Closes the connection and terminates the worker. */
  dispose(): void;
}

export function openWorkerPeer(worker: Worker, label = 'the server worker'): WorkerPeer {
  const { port1, port2 } = new MessageChannel();
  const transport = new MessagePortTransport(port1, { label, peer: 'worker' });
  // A worker that fails to load or throws at start-up would otherwise look like a silent server.
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    transport.onerror?.(
      new TransportError(label, 'unreachable', `${label} failed: ${event.message || 'it did not load'}`),
    );
    void transport.close();
  });
  worker.postMessage(connectMessage(), [port2]);
  return {
    transport,
    dispose() {
      void transport.close();
      worker.terminate();
    },
  };
}
