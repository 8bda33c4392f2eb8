/**
 * Resources, prompts, completion and subscriptions on one connection, against a scripted peer (so
 * each test sees exactly what was sent): capabilities honoured, pagination bounded, bad items
 * dropped with a warning, both eras' subscriptions, notifications surfaced as events. Real servers:
 * e2e/resources-prompts.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import {
  CapabilityMissingError,
  type Era,
  type JsonObject,
  type JsonRpcRequest,
  RpcEngine,
  type ServerCapabilities,
} from '../protocol/index.js';
import { McpClient } from './client.js';
import type { ClientWarning } from './options.js';

function setup(
  capabilities: ServerCapabilities,
  answer: (request: JsonRpcRequest, peer: ScriptedTransport) => JsonObject | undefined,
  era: Era = 'legacy',
) {
  const transport = new ScriptedTransport((request, peer) => {
    const result = answer(request, peer);
    if (result) peer.reply(request, result);
  });
  const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
  const warnings: ClientWarning[] = [];
  const client = new McpClient(
    'srv',
    engine,
    { era, protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25', capabilities },
    { clientInfo: { name: 't', version: '1' }, capabilities: {}, timeoutMs: 5_000 },
    { onWarning: (warning) => warnings.push(warning) },
  );
  const sent = (method: string) => transport.sentWith(method) as JsonRpcRequest[];
  return { client, transport, warnings, sent };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
};

describe('resources, prompts and completion on a connection', () => {
  it('asks nothing of a server that did not declare the capability, and names server and capability', async () => {
    const { client, transport } = setup({ tools: {} }, () => ({}));
    for (const [run, capability] of [
      [() => client.listResources(), 'resources'],
      [() => client.listResourceTemplates(), 'resources'],
      [() => client.readResource({ uri: 'file:///a' }), 'resources'],
      [() => client.listPrompts(), 'prompts'],
      [() => client.getPrompt({ name: 'p' }), 'prompts'],
      [
        () => client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } }),
        'completions',
      ],
    ] as const) {
      const error = await run().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapabilityMissingError);
      expect((error as Error).message).toContain('srv');
      expect((error as Error).message).toContain(`"${capability}"`);
    }
    const subscribe = await client.subscribeResource({ uri: 'file:///a' }).catch((e: unknown) => e);
    expect((subscribe as Error).message).toContain('resources.subscribe');
    expect(transport.sent).toHaveLength(0);
  });

  it('follows cursors to the end, and stops at a cursor that comes back', async () => {
    const pages: Record<string, JsonObject> = {
      '': { resources: [{ uri: 'file:///1', name: 'one' }], nextCursor: 'b' },
      b: { resources: [{ uri: 'file:///2', name: 'two' }], nextCursor: 'c' },
      c: { resources: [{ uri: 'file:///3', name: 'three' }], nextCursor: 'b' },
    };
    const { client, warnings, sent } = setup({ resources: {} }, (request) =>
      request.method === 'resources/list' ? pages[(request.params?.cursor as string) ?? ''] : undefined,
    );
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.name)).toEqual(['one', 'two', 'three']);
    expect(listed.nextCursor).toBeUndefined();
    expect(sent('resources/list')).toHaveLength(3);
    expect(warnings.map((w) => w.message).join()).toContain('came back twice');
    // One page when asked from a cursor, as the SDK's Client does.
    const page = await client.listResources({ cursor: 'b' });
    expect(page.resources.map((r) => r.name)).toEqual(['two']);
    expect(page.nextCursor).toBe('c');
  });

  it('stops following cursors at the page bound and says where it stopped', async () => {
    let n = 0;
    const { client } = setup({ prompts: {} }, (request) =>
      request.method === 'prompts/list' ? { prompts: [{ name: `p${n}` }], nextCursor: `c${++n}` } : undefined,
    );
    const listed = await client.listPrompts({ maxPages: 3 });
    expect(listed.prompts).toHaveLength(3);
    expect(listed.nextCursor).toBe('c3');
  });

  it('drops unusable items with one warning and keeps the rest', async () => {
    const { client, warnings } = setup({ resources: {} }, (request) =>
      request.method === 'resources/templates/list'
        ? {
            resourceTemplates: [
              { uriTemplate: 'file:///{path}', name: 'files', mimeType: 'not a mime' },
              { name: 'no template' },
              42,
            ],
          }
        : undefined,
    );
    const listed = await client.listResourceTemplates();
    expect(listed.resourceTemplates).toEqual([{ uriTemplate: 'file:///{path}', name: 'files' }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.code).toBe('malformed-offering');
  });

  it('reads text and blobs, gets prompts and completes, returning the spec result objects', async () => {
    const { client, sent } = setup({ resources: {}, prompts: {}, completions: {} }, (request) => {
      if (request.method === 'resources/read')
        return {
          contents: [
            { uri: 'file:///a', mimeType: 'text/plain', text: 'hi' },
            { uri: 'file:///b', mimeType: 'image/png', blob: 'AAEC' },
            { uri: 'file:///c', text: 'x', blob: 'AAEC' },
          ],
        };
      if (request.method === 'prompts/get')
        return { description: 'd', messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] };
      if (request.method === 'completion/complete')
        return { completion: { values: ['en', 'es'], hasMore: false } };
      return undefined;
    });
    const read = await client.readResource({ uri: 'file:///a' });
    expect(read.contents).toEqual([
      { uri: 'file:///a', mimeType: 'text/plain', text: 'hi' },
      { uri: 'file:///b', mimeType: 'image/png', blob: 'AAEC' },
    ]);
    const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'you' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello' });
    expect(sent('prompts/get')[0]?.params).toMatchObject({ name: 'greet', arguments: { who: 'you' } });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'lang', value: 'e' },
    });
    expect(completion).toEqual({ completion: { values: ['en', 'es'], hasMore: false } });
  });

  it('legacy: subscribes with resources/subscribe and surfaces updates and list changes as events', async () => {
    const { client, transport, sent } = setup(
      { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } },
      (request) => (request.method.startsWith('resources/') ? {} : undefined),
    );
    const updates: string[] = [];
    const changes: string[] = [];
    client.on('resourceUpdated', ({ uri }) => updates.push(uri));
    client.on('resourceListChanged', () => changes.push('resources'));
    const stop = client.on('promptListChanged', () => changes.push('prompts'));
    await client.subscribeResource({ uri: 'file:///watched' });
    expect(sent('resources/subscribe')[0]?.params).toEqual({ uri: 'file:///watched' });
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'file:///watched' },
    });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
    await until(() => changes.length === 2);
    expect(updates).toEqual(['file:///watched']);
    expect(changes).toEqual(['resources', 'prompts']);
    stop();
    await client.unsubscribeResource({ uri: 'file:///watched' });
    expect(sent('resources/unsubscribe')).toHaveLength(1);
    expect(sent('subscriptions/listen')).toHaveLength(0);
  });

  it('2026-07-28: subscribes through subscriptions/listen, re-opened when the filter changes', async () => {
    const { client, transport, sent } = setup(
      { resources: { subscribe: true, listChanged: true } },
      () => undefined, // the listen stream stays open
      'modern',
    );
    const updates: string[] = [];
    client.on('resourceUpdated', ({ uri }) => updates.push(uri));
    await client.subscribeResource({ uri: 'file:///a' });
    await until(() => sent('subscriptions/listen').length === 1);
    expect(sent('subscriptions/listen')[0]?.params?.notifications).toEqual({
      resourceSubscriptions: ['file:///a'],
    });
    client.on('resourceListChanged', () => undefined);
    await client.subscribeResource({ uri: 'file:///b' });
    await until(() => sent('subscriptions/listen').length === 3);
    expect(sent('subscriptions/listen')[2]?.params?.notifications).toEqual({
      resourcesListChanged: true,
      resourceSubscriptions: ['file:///a', 'file:///b'],
    });
    // The replaced stream is cancelled, not left open.
    expect(transport.sentWith('notifications/cancelled').length).toBeGreaterThanOrEqual(2);
    expect(sent('resources/subscribe')).toHaveLength(0);
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'file:///b', _meta: { 'io.modelcontextprotocol/subscriptionId': 3 } },
    });
    await until(() => updates.length === 1);
    expect(updates).toEqual(['file:///b']);
  });
});
