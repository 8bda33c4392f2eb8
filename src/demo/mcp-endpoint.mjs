// The demo's MCP endpoint: official SDK 1.x, Streamable HTTP with sessions (so the server can send
// elicitation requests and list changes), bound by the caller to 127.0.0.1. Its `long_report` runs
// as a task kept across sessions (long-report.mjs).
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { registerDemoApp } from './counter-app.mjs';
import { registerLongReport, SharedTaskStore, taskServerOptions } from './long-report.mjs';
import { registerDemoOfferings } from './offerings.mjs';
import { registerDemoTools } from './tools.mjs';

/** Returns a node:http handler for the MCP endpoint, and a close() for shutdown. */
export function createDemoEndpoint() {
  const sessions = new Map();
  // Shared by every session: a task started before a reload is found by the page after it.
  const taskStore = new SharedTaskStore();

  async function handle(req, res) {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (req.method !== 'POST') {
        res
          .writeHead(typeof sessionId === 'string' ? 404 : 400, { 'content-type': 'text/plain' })
          .end('No such session');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      const tasks = taskServerOptions(taskStore);
      const server = new McpServer(
        { name: 'toolgate-demo', version: '0.1.0' },
        { ...tasks, capabilities: { tools: { listChanged: true }, ...tasks.capabilities } },
      );
      registerDemoTools(server);
      registerLongReport(server, taskStore);
      registerDemoApp(server);
      registerDemoOfferings(server);
      await server.connect(transport);
    }
    await transport.handleRequest(req, res);
  }

  return {
    handle: (req, res) =>
      handle(req, res).catch((error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`demo server error: ${error.message}`);
      }),
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      taskStore.cleanup();
    },
  };
}
