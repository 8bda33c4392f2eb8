/**
 * The SDK 1.x Streamable HTTP endpoint with sessions, as the fixtures' own peers serve it: a request
 * with a known `mcp-session-id` goes to its session's transport, an unknown one gets 404, a new
 * session starts only with `initialize`. `newServer()` makes each session's low-level Server.
 */

import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { sendJson } from './common.mjs';

export function sessionedMcp(newServer) {
  /** id → { transport, server }: the fixtures send list_changed to every session's server. */
  const sessions = new Map();
  async function serve(req, res, body) {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) {
        sendJson(res, 404, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32001, message: 'Session not found' },
        });
        return;
      }
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'No session' } });
      return;
    }
    const server = newServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, { transport, server }),
      onsessionclosed: (id) => sessions.delete(id),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
  return { sessions, serve };
}
