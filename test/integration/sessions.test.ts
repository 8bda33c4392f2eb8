/**
 * Connection state against real servers: a legacy session the server forgot is re-initialized,
 * tool list changes reach the catalog (legacy GET stream, modern subscriptions/listen), modern
 * x-mcp-header arguments are mirrored into Mcp-Param-* headers the server checks, and the
 * dual-era server can still be spoken to in the legacy era.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { connect, type McpClient } from '../../src/index.js';
import { eventually, firstText } from './peer-cases.js';

describe.each(['sdk1-stateful-sse', 'sdk1-stateful-json'] as const)('%s session', (kind) => {
  let peer: Peer;
  let client: McpClient;
  beforeAll(async () => {
    peer = await startPeer(kind);
    client = await connect({ url: peer.url });
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  const initializeCount = async () =>
    (await peer.events()).messages.filter((message) => message.method === 'initialize').length;

  it('re-initializes when the server forgot the session', async () => {
    expect(firstText(await client.callTool('echo', { message: 'before' }))).toBe('Echo: before');
    const before = await initializeCount();
    expect(await peer.control('forget-sessions')).toMatchObject({ forgotten: 1 });
    expect(firstText(await client.callTool('echo', { message: 'after' }))).toBe('Echo: after');
    expect(await initializeCount()).toBe(before + 1);
    const sessions = new Set(
      (await peer.events()).messages
        .filter((message) => message.method === 'tools/call')
        .map((message) => message.headers['mcp-session-id']),
    );
    expect(sessions.size).toBe(2);
  });

  it('refetches the tool list after tools/list_changed', async () => {
    await client.listTools();
    let changed = 0;
    client.onToolListChanged = () => {
      changed++;
    };
    // The standalone stream opens in the background; add tools until a change notice gets through.
    let added = '';
    await eventually('a tools/list_changed notification', async () => {
      if (changed > 0) return true;
      added = String((await peer.control('add-tool')).added);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return changed > 0;
    });
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toContain(added);
  });

  // The reopened GET stream meets the 404 before our next call does; the call must still re-initialize.
  it('re-initializes even when its server stream noticed the loss first', async () => {
    const before = await initializeCount();
    const sessionId = (await peer.events()).streams.at(-1)?.headers['mcp-session-id'];
    await peer.control('forget-sessions');
    // The closed GET stream is reopened after a delay and meets the 404 before our next call does.
    await eventually('the server stream to retry the forgotten session', async () => {
      const { streams } = await peer.events();
      return streams.filter((stream) => stream.headers['mcp-session-id'] === sessionId).length >= 2;
    });
    expect(firstText(await client.callTool('echo', { message: 'later' }))).toBe('Echo: later');
    expect(await initializeCount()).toBe(before + 1);
  });
});

describe('modern peer', () => {
  let peer: Peer;
  let client: McpClient;
  beforeAll(async () => {
    peer = await startPeer('modern');
    client = await connect({ url: peer.url });
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  it('mirrors x-mcp-header arguments into Mcp-Param-* headers the server accepts', async () => {
    // The server rejects a call whose headers disagree with its body (-32020), so success proves the
    // header matched; the recorded headers show what was sent.
    const plain = await client.callTool('region', { region: 'eu-west-1', query: 'weather' });
    expect(firstText(plain)).toBe('weather in eu-west-1');
    const accented = await client.callTool('region', { region: 'Zürich', query: 'weather' });
    expect(firstText(accented)).toBe('weather in Zürich');
    const calls = (await peer.events()).messages.filter(
      (m) => m.method === 'tools/call' && m.tool === 'region',
    );
    expect(calls.map((m) => m.headers['mcp-param-region'])).toEqual([
      'eu-west-1',
      `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
    ]);
    for (const call of calls) {
      expect(call.headers['mcp-method']).toBe('tools/call');
      expect(call.headers['mcp-name']).toBe('region');
      expect(call.headers['mcp-protocol-version']).toBe('2026-07-28');
    }
  });

  it('refetches the tool list after a change arrives on subscriptions/listen', async () => {
    await client.listTools();
    let changed = 0;
    client.onToolListChanged = () => {
      changed++;
    };
    await eventually('the listen stream to open', async () =>
      (await peer.events()).messages.some((m) => m.method === 'subscriptions/listen'),
    );
    let added = '';
    await eventually('a tools list change notice', async () => {
      if (changed > 0) return true;
      added = String((await peer.control('add-tool')).added);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return changed > 0;
    });
    expect((await client.listTools()).map((tool) => tool.name)).toContain(added);
  });

  it('still speaks the legacy era on the same endpoint when asked to', async () => {
    const legacy = await connect({ url: peer.url, era: 'legacy' });
    try {
      expect(legacy.era).toBe('legacy');
      expect(firstText(await legacy.callTool('echo', { message: 'old times' }))).toBe('Echo: old times');
    } finally {
      await legacy.close();
    }
    const initialize = (await peer.events()).messages.find((m) => m.method === 'initialize');
    expect(initialize?.headers['mcp-method']).toBeUndefined();
  });
});
