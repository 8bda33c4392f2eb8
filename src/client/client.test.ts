import { describe, expect, it, vi } from 'vitest';
import { type Responder, ScriptedTransport } from '../../test/support/scripted-transport.js';
import {
  CapabilityMissingError,
  GuardError,
  InvalidResponseError,
  type JsonObject,
  type JsonRpcRequest,
  McpError,
  META,
  RequestCancelledError,
  RequestTimeoutError,
  ResponseLostError,
  RpcEngine,
  UnsupportedServerError,
} from '../protocol/index.js';
import { MAX_INPUT_ROUNDS, McpClient, normalizeCallToolResult } from './client.js';
import type { ServerSession } from './handshake.js';
import type { ConnectOptions } from './options.js';

const modern: ServerSession = { era: 'modern', protocolVersion: '2026-07-28', capabilities: { tools: {} } };
const legacy: ServerSession = { era: 'legacy', protocolVersion: '2025-11-25', capabilities: { tools: {} } };
const intro = { clientInfo: { name: 't', version: '1' }, capabilities: {}, timeoutMs: 5_000 };

function clientOver(responder: Responder, session = modern, options: ConnectOptions = {}) {
  const transport = new ScriptedTransport(responder);
  const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
  const client = new McpClient('srv', engine, session, intro, options);
  const calls = () => transport.sentWith('tools/call') as JsonRpcRequest[];
  return { client, transport, calls };
}

describe('McpClient input_required rounds (2026-07-28 MRTR)', () => {
  it('asks the host, then retries under a new id with inputResponses and the exact requestState', async () => {
    const onElicit = vi.fn(async () => ({ action: 'accept' as const, content: { name: 'Ada' } }));
    const { client, calls } = clientOver(
      (r, peer) => {
        const params = r.params as JsonObject;
        if (!params.inputResponses)
          peer.reply(r, {
            resultType: 'input_required',
            requestState: 'opaque+state/==',
            inputRequests: {
              who: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'Name?',
                  requestedSchema: {
                    type: 'object',
                    properties: { name: { type: 'string' }, lang: { type: 'string', default: 'en' } },
                  },
                },
              },
            },
          });
        else peer.reply(r, { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] });
      },
      modern,
      { onElicit },
    );
    const result = await client.callTool('greet', { polite: true });
    expect(result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    const [first, second] = calls();
    expect(second!.id).not.toEqual(first!.id);
    expect(second!.params).toMatchObject({
      name: 'greet',
      arguments: { polite: true },
      requestState: 'opaque+state/==',
      // The host answered only `name`; the schema default fills `lang` (we declare applyDefaults).
      inputResponses: { who: { action: 'accept', content: { name: 'Ada', lang: 'en' } } },
    });
    expect(first!.params).not.toHaveProperty('requestState');
    expect(onElicit).toHaveBeenCalledWith(expect.objectContaining({ message: 'Name?' }), {
      serverId: 'srv',
      toolName: 'greet',
    });
  });

  it('retries at once, without inputResponses, when only requestState comes back', async () => {
    const { client, calls } = clientOver((r, peer) => {
      if (!(r.params as JsonObject).requestState)
        peer.reply(r, { resultType: 'input_required', requestState: 's1' });
      else peer.reply(r, { content: [] });
    });
    await client.callTool('t');
    expect(calls()[1]!.params).toMatchObject({ requestState: 's1' });
    expect(calls()[1]!.params).not.toHaveProperty('inputResponses');
  });

  it('declines when the host gave no elicitation handler', async () => {
    const { client, calls } = clientOver((r, peer) => {
      if (!(r.params as JsonObject).inputResponses)
        peer.reply(r, {
          resultType: 'input_required',
          inputRequests: { q: { method: 'elicitation/create', params: { message: 'x' } } },
        });
      else peer.reply(r, { content: [] });
    });
    await client.callTool('t');
    expect(calls()[1]!.params).toMatchObject({ inputResponses: { q: { action: 'decline' } } });
  });

  it('stops a server that keeps asking', async () => {
    const { client, calls } = clientOver((r, peer) =>
      peer.reply(r, { resultType: 'input_required', requestState: 'again' }),
    );
    await expect(client.callTool('t')).rejects.toBeInstanceOf(GuardError);
    expect(calls()).toHaveLength(MAX_INPUT_ROUNDS + 1);
  });

  it('refuses input requests for capabilities it did not declare', async () => {
    const { client } = clientOver((r, peer) =>
      peer.reply(r, {
        resultType: 'input_required',
        inputRequests: { s: { method: 'sampling/createMessage', params: {} } },
      }),
    );
    await expect(client.callTool('t')).rejects.toBeInstanceOf(UnsupportedServerError);
  });

  it('adds modern _meta to every request and none in the legacy era', async () => {
    const answer: Responder = (r, peer) => peer.reply(r, { content: [] });
    const m = clientOver(answer, modern);
    await m.client.callTool('t', {}, { onprogress: () => undefined });
    expect(m.calls()[0]!.params!._meta).toMatchObject({
      [META.protocolVersion]: '2026-07-28',
      progressToken: expect.any(Number),
    });
    const l = clientOver(answer, legacy);
    await l.client.callTool('t');
    expect(l.calls()[0]!.params).toEqual({ name: 't', arguments: {} });
  });

  it('marks the catalog stale on notifications/tools/list_changed', async () => {
    let version = 1;
    const { client, transport } = clientOver(
      (r, peer) => peer.reply(r, { tools: [{ name: `tool${version}`, inputSchema: { type: 'object' } }] }),
      legacy,
    );
    expect((await client.listTools()).map((t) => t.name)).toEqual(['tool1']);
    version = 2;
    expect((await client.listTools()).map((t) => t.name)).toEqual(['tool1']);
    transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['tool2']);
  });
});

describe('capabilities', () => {
  it.each([
    ['a legacy', { ...legacy, capabilities: { resources: {} } }],
    ['a modern', { ...modern, capabilities: {} }],
  ])(
    '%s server that declares no tools offers none and is never sent tools/list or tools/call',
    async (_era, session) => {
      const { client, transport, calls } = clientOver(
        (r, peer) => peer.reply(r, { tools: [], content: [] }),
        session,
      );
      expect(client.offersTools).toBe(false);
      expect(await client.listTools()).toEqual([]);
      await expect(client.callTool('echo', {})).rejects.toThrow(CapabilityMissingError);
      await expect(client.callTool('echo', {})).rejects.toThrow(
        'srv does not offer tools: it did not declare the "tools" capability',
      );
      expect(transport.sentWith('tools/list')).toHaveLength(0);
      expect(calls()).toHaveLength(0);
    },
  );
});

describe('callTool errors name the server and the tool', () => {
  /** What the call rejected with; the scripted server's behaviour is set per test. */
  async function failure(responder: Responder, options: Parameters<McpClient['callTool']>[2] = {}) {
    const { client, transport } = clientOver(responder, legacy);
    const error = await client.callTool('search_files', {}, options).catch((e: unknown) => e as Error);
    return { error, transport };
  }

  it('a timeout', async () => {
    const { error } = await failure(() => undefined, { timeoutMs: 30 });
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toContain(
      "Server 'srv' did not answer tools/call for tool 'search_files' within 30 ms",
    );
    expect(error.message).toContain('raise the timeout');
  });

  it('a total timeout', async () => {
    const { error } = await failure(() => undefined, { timeoutMs: 60_000, maxTotalTimeoutMs: 20 });
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toMatch(/tools\/call for tool 'search_files' on server 'srv' ran past/);
  });

  it('a cancellation', async () => {
    const controller = new AbortController();
    const pending = failure(() => controller.abort('the person left'), { signal: controller.signal });
    const { error } = await pending;
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect(error.message).toBe(
      "tools/call for tool 'search_files' on server 'srv' was cancelled: the person left",
    );
  });

  it('an invalid result, from the engine and from the result check', async () => {
    const envelope = await failure((r, peer) => peer.deliver({ jsonrpc: '2.0', id: r.id, result: null }));
    expect(envelope.error).toBeInstanceOf(InvalidResponseError);
    expect(envelope.error.message).toContain(
      "Server 'srv' sent an invalid answer to tools/call for tool 'search_files'",
    );
    const shape = await failure((r, peer) => peer.reply(r, { isError: false }));
    expect(shape.error).toBeInstanceOf(InvalidResponseError);
    expect(shape.error.message).toContain(
      "Server 'srv' sent an invalid answer to tools/call for tool 'search_files'",
    );
  });

  it('a JSON-RPC error and a lost answer', async () => {
    const refused = await failure((r, peer) => peer.fail(r, -32602, 'bad path'));
    expect(refused.error).toBeInstanceOf(McpError);
    expect(refused.error.message).toBe(
      "Server 'srv' answered tools/call for tool 'search_files' with an error: bad path (MCP error -32602)",
    );
    const lost = await failure((r, peer) =>
      queueMicrotask(() => peer.onresponselost?.(r.id, new Error('the stream ended'))),
    );
    expect(lost.error).toBeInstanceOf(ResponseLostError);
    expect(lost.error.message).toContain(
      "The answer of server 'srv' to tools/call for tool 'search_files' was lost: the stream ended",
    );
  });
});

describe('normalizeCallToolResult', () => {
  it('drops resultType and keeps content, isError and structuredContent', () => {
    expect(
      normalizeCallToolResult({
        resultType: 'complete',
        content: [{ type: 'text', text: 'x' }],
        isError: true,
        structuredContent: { a: 1 },
      }),
    ).toEqual({ content: [{ type: 'text', text: 'x' }], isError: true, structuredContent: { a: 1 } });
  });

  it.each([
    [{ isError: true }, 'no "content" array'],
    [{ content: 'hello' }, '"content" must be an array, not a string'],
    [{ content: { type: 'text' } }, '"content" must be an array, not an object'],
    [{ content: [{ type: 'text', text: 'ok' }, 7] }, 'content[1] is not a content block'],
    [{ content: [], isError: 'yes' }, '"isError" must be true or false'],
  ])('refuses %j instead of turning it into an empty success', (result, reason) => {
    expect(() => normalizeCallToolResult(result, 'files')).toThrow(InvalidResponseError);
    expect(() => normalizeCallToolResult(result, 'files')).toThrow(reason);
    expect(() => normalizeCallToolResult(result, 'files')).toThrow(
      /Server 'files' sent an invalid answer to tools\/call/,
    );
  });
});

describe('McpClient and task handles (2026-07-28 tasks extension)', () => {
  it('treats a task handle to anything but tools/call as an invalid response', async () => {
    const { client } = clientOver((r, peer) =>
      peer.reply(r, { resultType: 'task', taskId: 't1', status: 'working', ttlMs: null }),
    );
    await expect(client.request('prompts/get', { name: 'p' })).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('rejects a malformed task handle to tools/call', async () => {
    const { client } = clientOver((r, peer) => peer.reply(r, { resultType: 'task', status: 'working' }));
    await expect(client.callTool('t', {})).rejects.toBeInstanceOf(InvalidResponseError);
  });
});
