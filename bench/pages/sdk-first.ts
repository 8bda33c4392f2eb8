/**
 * The same first result with the official SDK client (1.x): Client + StreamableHTTPClientTransport.
 * Size entry and navigation-to-first-result script, like toolgate-first.ts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Connects to `url`, lists the tools and calls echo once. */
export async function firstResult(url: string, message: string): Promise<unknown> {
  const client = new Client({ name: 'toolgate-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.listTools();
  return client.callTool({ name: 'echo', arguments: { message } });
}
