/**
 * The WebMCP page transport, in Node. `document.modelContext` exists only in a browser with WebMCP,
 * so a test double stands in for it here (FakeModelContext: registerTool, getTools, executeTool and
 * `toolchange`, with the shapes Chromium 156 gives, see webmcp-page.ts); e2e/webmcp.spec.ts runs the
 * same transport against the real API in Chromium.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../protocol/index.js';
import { type ModelContextLike, registerGatedTool, WebMcpPageTransport } from './webmcp-page.js';

type Definition = Parameters<ModelContextLike['registerTool']>[0];

class FakeModelContext extends EventTarget implements ModelContextLike {
  readonly tools = new Map<string, Definition & { origin: string }>();
  async registerTool(tool: Definition, options: { signal?: AbortSignal } = {}, origin = 'https://page.test') {
    if (this.tools.has(tool.name)) throw new DOMException('Duplicate tool name', 'InvalidStateError');
    this.tools.set(tool.name, { ...tool, origin });
    options.signal?.addEventListener('abort', () => {
      this.tools.delete(tool.name);
      this.dispatchEvent(new Event('toolchange'));
    });
    this.dispatchEvent(new Event('toolchange'));
  }
  async getTools() {
    return [...this.tools.values()].map(({ execute: _execute, ...rest }) => rest);
  }
  // As Chromium: the result comes back as a JSON string; a throwing tool rejects.
  async executeTool(tool: { name: string }, input: JsonObject = {}) {
    const registered = this.tools.get(tool.name);
    if (!registered) throw new DOMException('Tool not found', 'NotFoundError');
    try {
      return JSON.stringify(await registered.execute(input, { signal: new AbortController().signal }));
    } catch {
      throw new DOMException('Tool was executed but the invocation failed', 'UnknownError');
    }
  }
}

function harness(context: FakeModelContext) {
  const transport = new WebMcpPageTransport(context, 'https://page.test');
  const received: JsonObject[] = [];
  transport.onmessage = (message) => received.push(message as JsonObject);
  let next = 1;
  const request = async (method: string, params: JsonObject = {}) => {
    const id = next++;
    await transport.send({ jsonrpc: '2.0', id, method, params });
    await expect.poll(() => received.some((message) => message.id === id)).toBe(true);
    return received.find((message) => message.id === id)!;
  };
  return { transport, received, request };
}

const add: Definition = {
  name: 'add',
  description: 'Adds',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  annotations: { readOnlyHint: true },
  execute: async (input) => ({
    content: [{ type: 'text', text: String(Number(input.a) + Number(input.b)) }],
  }),
};

describe('WebMcpPageTransport', () => {
  it('answers initialize in the legacy era and refuses server/discover, so the client falls back', async () => {
    const { transport, request } = harness(new FakeModelContext());
    await transport.start();
    const discover = await request('server/discover');
    expect((discover.error as JsonObject).code).toBe(-32601);
    const init = await request('initialize', { protocolVersion: '2025-06-18' });
    expect(init.result).toMatchObject({
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true } },
    });
  });

  it("lists the page's tools with their schemas and claims, not another origin's nor Toolgate's own", async () => {
    const context = new FakeModelContext();
    await context.registerTool(add);
    await context.registerTool({ ...add, name: 'framed' }, {}, 'https://other.test');
    await registerGatedTool(context, { ...add, name: 'echo' }, new AbortController().signal);
    const { transport, request } = harness(context);
    await transport.start();
    const listed = (await request('tools/list')).result as { tools: JsonObject[] };
    expect(listed.tools).toEqual([
      {
        name: 'add',
        description: 'Adds',
        inputSchema: add.inputSchema,
        annotations: { readOnlyHint: true },
      },
    ]);
  });

  it('says list_changed on toolchange while open, and nothing once closed', async () => {
    const context = new FakeModelContext();
    const { transport, received } = harness(context);
    await transport.start();
    await context.registerTool(add);
    await expect
      .poll(() => received.filter((m) => m.method === 'notifications/tools/list_changed').length)
      .toBe(1);
    await transport.close();
    await context.registerTool({ ...add, name: 'later' });
    await Promise.resolve();
    expect(received.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
  });

  it('calls a tool: a result object as is, anything else as text, a throwing tool as a tool error', async () => {
    const context = new FakeModelContext();
    await context.registerTool(add);
    await context.registerTool({ name: 'plain', description: 'text', execute: async () => 'plain words' });
    await context.registerTool({
      name: 'boom',
      description: 'throws',
      execute: async () => {
        throw new Error('kaput');
      },
    });
    const { transport, request } = harness(context);
    await transport.start();
    expect((await request('tools/call', { name: 'add', arguments: { a: 2, b: 40 } })).result).toEqual({
      content: [{ type: 'text', text: '42' }],
    });
    expect((await request('tools/call', { name: 'plain', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: 'plain words' }],
    });
    const failed = (await request('tools/call', { name: 'boom', arguments: {} })).result as JsonObject;
    expect(failed.isError).toBe(true);
    const missing = await request('tools/call', { name: 'gone', arguments: {} });
    expect((missing.error as JsonObject).code).toBe(-32602);
  });
});
