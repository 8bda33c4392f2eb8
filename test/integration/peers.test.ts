/**
 * Toolgate's connect() against every real peer: era and transport detection, listing, calls with
 * arguments, progress, cancellation, timeouts, tool errors and structured results. Our own peers
 * record what reached them, so the server side of each claim is checked too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, type PeerEvents, startPeer } from '../../e2e/support/peers.js';
import { connect, type McpClient, RequestCancelledError, RequestTimeoutError } from '../../src/index.js';
import type { Progress } from '../../src/protocol/types.js';
import { isLegacyVersion } from '../../src/protocol/versions.js';
import { type RecordingProxy, startRecordingProxy } from '../support/recording-proxy.js';
import { eventually, firstText, PEER_CASES } from './peer-cases.js';

describe.each(PEER_CASES)('$kind', (peerCase) => {
  let peer: Peer;
  let client: McpClient;
  /** For peers that keep no record (server-everything): what reached their door. */
  let proxy: RecordingProxy | undefined;

  beforeAll(async () => {
    peer = await startPeer(peerCase.kind);
    if (!peerCase.recording) proxy = await startRecordingProxy(peer.url);
    client = await connect({ url: proxy?.url ?? peer.url });
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await peer?.stop();
  });

  const events = (): Promise<PeerEvents> => peer.events();

  it(`speaks the ${peerCase.era} era over ${peerCase.transport}`, async () => {
    expect(client.era).toBe(peerCase.era);
    if (peerCase.era === 'modern') expect(client.protocolVersion).toBe('2026-07-28');
    else expect(isLegacyVersion(client.protocolVersion)).toBe(true);
    if (!peerCase.recording) return;
    const seen = await events();
    const methods = seen.messages.map((message) => message.method);
    if (peerCase.era === 'modern') {
      expect(methods).toContain('server/discover');
      expect(methods).not.toContain('initialize');
    } else {
      expect(methods).toContain('initialize');
    }
    if (peerCase.transport === 'http+sse') {
      // The legacy transport: one GET /sse stream, messages POSTed to the endpoint it named.
      expect(seen.streams.some((stream) => stream.path === '/sse')).toBe(true);
      const initialize = seen.messages.find((message) => message.method === 'initialize');
      expect(initialize?.path).toMatch(/^\/messages\?sessionId=/);
    } else {
      expect(seen.messages.every((message) => message.path === '/mcp')).toBe(true);
    }
  });

  it('lists the tools', async () => {
    const names = (await client.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(peerCase.tools));
  });

  it('calls a tool with arguments', async () => {
    const result = await client.callTool(peerCase.echo.name, peerCase.echo.args);
    expect(result.isError).not.toBe(true);
    expect(firstText(result)).toBe(peerCase.echo.expectText);
    if (peerCase.recording)
      expect((await events()).calls).toContainEqual({ tool: 'echo', arguments: peerCase.echo.args });
  });

  it('calls a tool whose answer depends on two arguments', async () => {
    const name = peerCase.recording ? 'add' : 'get-sum';
    const result = await client.callTool(name, { a: 19, b: 23 });
    expect(firstText(result)).toContain('42');
  });

  it(peerCase.streamsProgress ? 'reports progress' : 'answers a call that asked for progress', async () => {
    const updates: Progress[] = [];
    const result = await client.callTool(peerCase.progress.name, peerCase.progress.args, {
      onprogress: (progress) => updates.push(progress),
    });
    expect(result.isError).not.toBe(true);
    if (!peerCase.streamsProgress) return; // a JSON response has nowhere to put progress
    expect(updates.map((update) => update.progress)).toEqual([1, 2, 3]);
    expect(updates.every((update) => update.total === peerCase.progress.steps)).toBe(true);
  });

  it('cancels a running call through an AbortSignal', async () => {
    const args = { ...peerCase.long.args, ...(peerCase.recording ? { ms: 60_001 } : {}) };
    const controller = new AbortController();
    const seenBefore = proxy?.messages().length ?? 0;
    const callsOfLong = () =>
      proxy!
        .messages()
        .slice(seenBefore)
        .filter((m) => m.method === 'tools/call' && m.params?.name === peerCase.long.name);
    const call = client.callTool(peerCase.long.name, args, { signal: controller.signal });
    call.catch(() => undefined);
    // Abort only once the server is working on it, so the server has something to cancel.
    if (peerCase.recording)
      await eventually('the server to start the call', async () =>
        (await events()).calls.some((c) => c.tool === peerCase.long.name && c.arguments.ms === 60_001),
      );
    else await eventually('the call to reach the server', async () => callsOfLong().length === 1);
    controller.abort('the test cancelled it');
    const error = await call.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RequestCancelledError);
    if (peerCase.recording) {
      const seen = await eventually('the server to see the cancellation', async () => {
        const current = await events();
        return current.cancellations.some((c) => c.via === 'abort' && c.arguments?.ms === 60_001) && current;
      });
      if (peerCase.cancelNotificationReachesCall)
        expect(seen.cancellations.some((c) => c.via === 'notification')).toBe(true);
    } else {
      // The server was told: a cancellation naming exactly this call's request id reached it.
      const id = callsOfLong()[0]!.id;
      await eventually('the cancellation to reach the server', async () =>
        proxy!.messages().some((m) => m.method === 'notifications/cancelled' && m.params?.requestId === id),
      );
    }
    // The connection stays usable.
    expect(firstText(await client.callTool(peerCase.echo.name, peerCase.echo.args))).toBe(
      peerCase.echo.expectText,
    );
  });

  it('times out a call that takes too long', async () => {
    const args = { ...peerCase.long.args, ...(peerCase.recording ? { ms: 60_002 } : {}) };
    const error = await client.callTool(peerCase.long.name, args, { timeoutMs: 400 }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).timeoutMs).toBe(400);
    if (peerCase.recording)
      // A timed-out call is cancelled on the wire, not just forgotten.
      await eventually('the server to see the timed-out call cancelled', async () =>
        (await events()).cancellations.some((c) => c.via === 'abort' && c.arguments?.ms === 60_002),
      );
  });

  it('returns a tool execution error as a result', async () => {
    if (peerCase.recording) {
      const result = await client.callTool('fail', {});
      expect(result.isError).toBe(true);
      expect(firstText(result)).toBe('the fail tool always fails');
    } else {
      // server-everything has no failing tool; its SDK reports invalid arguments as an isError result.
      const result = await client.callTool('echo', {});
      expect(result.isError).toBe(true);
      expect(firstText(result)).toMatch(/message/i);
    }
  });

  it('returns structured content', async () => {
    if (peerCase.recording) {
      const result = await client.callTool('structured', { city: 'Oslo' });
      expect(result.structuredContent).toEqual({ city: 'Oslo', temperatureC: 21.5 });
    } else {
      const result = await client.callTool('get-structured-content', { location: 'New York' });
      expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    }
  });
});
