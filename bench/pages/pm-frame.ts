/**
 * The postMessage echo server, in an iframe of another origin. Two ways in, answering the same
 * echo: Toolgate's accepting side (acceptPostMessageClients, with an RpcEngine answering
 * initialize, tools/list and tools/call) and a raw transferred MessagePort that answers each
 * request object with the response object and nothing else.
 */

import { RpcEngine } from '../../src/protocol/engine.js';
import type { JsonObject } from '../../src/protocol/jsonrpc.js';
import { acceptPostMessageClients } from '../../src/transport/post-message-server.js';
import { TOOL } from '../payload.mjs';

const parentOrigin = new URL(location.href).searchParams.get('parent') ?? '';

/** The echo tool's answer, shared by both ways in so that they do the same work. */
function echo(params: JsonObject | undefined): JsonObject {
  const message = (params?.arguments as { message?: unknown } | undefined)?.message;
  return { content: [{ type: 'text', text: String(message) }] };
}

const TOOLS = {
  tools: [
    {
      name: TOOL,
      description: 'Echoes the message back',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    },
  ],
};

acceptPostMessageClients({
  allowedOrigins: [parentOrigin],
  allowedSources: [window.parent],
  onConnection: (transport) => {
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    // A legacy-era server (as SDK 1.x servers are): no server/discover, so the client falls back.
    engine.setRequestHandler('initialize', (params) => ({
      protocolVersion: String(params.protocolVersion),
      capabilities: { tools: {} },
      serverInfo: { name: 'toolgate-bench-frame', version: '1.0.0' },
    }));
    engine.setRequestHandler('tools/list', () => TOOLS);
    engine.setRequestHandler('tools/call', (params) => echo(params));
    void transport.start();
  },
});

addEventListener('message', (event: MessageEvent) => {
  if (event.origin !== parentOrigin || (event.data as { bench?: unknown })?.bench !== 'raw-port') return;
  const port = event.ports[0];
  if (!port) return;
  port.onmessage = (request: MessageEvent) => {
    const { id, params } = request.data as { id: number; params: JsonObject };
    port.postMessage({ jsonrpc: '2.0', id, result: echo(params) });
  };
  port.postMessage({ jsonrpc: '2.0', id: 0, result: {} });
});

window.parent.postMessage({ bench: 'frame-ready' }, parentOrigin);
