// One request of a stateless Streamable HTTP MCP server (official SDK 1.x): a fresh transport
// for `server`, the request answered, both closed when the client goes away. Closing the server
// then aborts a running handler, which is how a stateless server notices a cancelled call
// (notifications/cancelled would reach another instance).
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * @param {import('@modelcontextprotocol/sdk/server/mcp.js').McpServer} server
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {unknown} body the parsed JSON body
 * @param {{ json?: boolean }} [options] answer with JSON (default) or an SSE stream
 */
export async function answerStateless(server, req, res, body, { json = true } = {}) {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: json,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
