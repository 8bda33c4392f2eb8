/**
 * The demo MCP server that runs in the visitor's browser, for the static site: the official SDK
 * (1.x McpServer, the same demo tools as `npm start`'s server) in a dedicated Web Worker, reached
 * over a MessageChannel, with the demo's MCP App (counter-app.mjs). A worker rather than a sandboxed
 * frame: a frame at an opaque origin may only load module scripts from hosts that send CORS headers,
 * which plain static hosts do not.
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { acceptWorkerClients } from '../transport/index.js';
import { registerDemoApp } from './counter-app.mjs';
import { registerDemoOfferings } from './offerings.mjs';
import { registerDemoTools } from './tools.mjs';

acceptWorkerClients((transport) => {
  const server = new McpServer(
    { name: 'toolgate-demo-in-browser', title: 'Demo server (in your browser)', version: '0.1.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  registerDemoTools(server);
  // The demo's MCP App: the static site shows an app with nothing but its in-browser server.
  registerDemoApp(server);
  // A prompt and a resource, for the host API's example agent.
  registerDemoOfferings(server);
  // Our MessagePortTransport has the SDK's transport shape (start, send, close, on*).
  void server.connect(transport as unknown as SdkTransport);
});
