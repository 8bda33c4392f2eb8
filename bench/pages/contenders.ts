/**
 * The HTTP contenders, shared by the round-trip page and the profiling page: a plain-fetch client,
 * the official SDK client and Toolgate, each over the network or over an instant in-memory fetch.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connect } from '../../src/index.js';
import { echoResponse, MESSAGE, TOOL } from '../payload.mjs';
import type { Contender } from './measure.js';

export const endpoint = (path: string) => new URL(path, location.href).href;
export const args = { message: MESSAGE };
/** What both clients negotiate with the SDK 1.x server (its latest). */
const PROTOCOL_VERSION = '2025-11-25';

/** Throws unless a result carries the echoed text: a contender that fails fast must not look fast. */
export function check(name: string, result: unknown): void {
  const text = (result as { content?: { text?: unknown }[] } | undefined)?.content?.[0]?.text;
  if (text !== MESSAGE) throw new Error(`${name} returned ${JSON.stringify(result).slice(0, 200)}`);
}

/**
 * A plain-fetch client: what any JSON-RPC client over fetch must do at least (serialize a request,
 * POST it, parse the answer). Against /floor it is the floor of the issue (HTTP alone, a fixed body
 * the size of the echo answer); against the SDK endpoints it is the cheapest possible client of that
 * server, which separates the server's MCP work from the clients' own.
 */
export function plainFetch(
  name: string,
  path: string,
  sse: boolean,
  fetcher: typeof fetch = fetch,
): Contender {
  const url = endpoint(path);
  let id = 0;
  return {
    name,
    call: async () => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: TOOL, arguments: args },
      });
      const response = await fetcher(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': PROTOCOL_VERSION,
        },
        body,
      });
      // text() + JSON.parse, not json(): in Chromium the latter is the slower of the two on a
      // Response made in memory, and a floor must be the cheapest way.
      if (!sse) return (JSON.parse(await response.text()) as { result: unknown }).result;
      // The least an SSE reader can do: take the one data line of the one event.
      const text = await response.text();
      const start = text.indexOf('data: ') + 6;
      return (JSON.parse(text.slice(start, text.indexOf('\n', start))) as { result: unknown }).result;
    },
  };
}

export async function toolgate(name: string, path: string, fetcher?: typeof fetch): Promise<Contender> {
  const client = await connect({ url: endpoint(path), ...(fetcher ? { fetch: fetcher } : {}) });
  await client.listTools();
  return { name, call: () => client.callTool(TOOL, args) };
}

export async function sdk(name: string, path: string, fetcher?: typeof fetch): Promise<Contender> {
  const client = new Client({ name: 'toolgate-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint(path)), fetcher ? { fetch: fetcher } : {}),
  );
  await client.listTools();
  return { name, call: () => client.callTool({ name: TOOL, arguments: args }) };
}

/**
 * A fetch that, once switched on, answers every POST at once from memory with the echo answer (as
 * JSON or as one SSE event). Connections are set up over the real network first. With the network
 * gone, what remains of a round trip is the client's own work: headers, serialization, parsing,
 * promise hops, validation.
 */
export function instantFetch(sse: boolean): { fetcher: typeof fetch; switchOn: () => void } {
  let on = false;
  const fetcher: typeof fetch = async (input, init) => {
    if (!on) return fetch(input, init);
    const request = JSON.parse(String(init?.body)) as { id?: number };
    if (request.id === undefined) return new Response(null, { status: 202 });
    const json = JSON.stringify(echoResponse(request.id));
    return sse
      ? new Response(`event: message\ndata: ${json}\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        })
      : new Response(json, { headers: { 'content-type': 'application/json' } });
  };
  return {
    fetcher,
    switchOn: () => {
      on = true;
    },
  };
}

export async function instantContenders(): Promise<Contender[]> {
  const json = instantFetch(false);
  const sse = instantFetch(true);
  const contenders = [
    plainFetch('floor', '/json', false, json.fetcher),
    await sdk('sdk-json', '/json', json.fetcher),
    await toolgate('toolgate-json', '/json', json.fetcher),
    plainFetch('floor-sse', '/sse', true, sse.fetcher),
    await sdk('sdk-sse', '/sse', sse.fetcher),
    await toolgate('toolgate-sse', '/sse', sse.fetcher),
  ];
  json.switchOn();
  sse.switchOn();
  return Promise.all(contenders.map(verified));
}

/** Checks one call's result first: a contender that fails fast must not look fast. */
export async function verified(contender: Contender): Promise<Contender> {
  check(contender.name, await contender.call());
  return contender;
}
