/**
 * Sessions by the specification against a real SDK 1.x stateful server (e2e/peers/sdk1-streamable.mjs).
 * The server itself forgets its sessions (POST /__control/forget-sessions) at the moments a test
 * picks: a small pass-through proxy asks it to just before forwarding a request that carries a
 * session id, so every 404 the client meets is the real SDK's own answer. A server that forgets
 * once gets a new session, during connect as well as later; one that forgets every session gets 3
 * new ones in a row, then the connection fails and the gate refuses its calls without sending.
 * Last, a real 2024-11-05 server that goes away leaves a failed connection the gate refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate } from '../../src/gate/pipeline.js';
import { createPolicy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import { connect, type McpClient } from '../../src/index.js';
import { ConnectionClosedError, TransportError } from '../../src/protocol/errors.js';
import { createSchemaValidator } from '../../src/schema/index.js';
import { startRecordingProxy } from '../support/recording-proxy.js';
import { eventually, firstText } from './peer-cases.js';

interface ForgettingProxy {
  url: string;
  /** Decides, for each request carrying a session id, whether the server forgets its sessions first. */
  forget: () => boolean;
  close(): Promise<void>;
}

/** A proxy to `peer` that makes the real server forget its sessions whenever `forget()` says so. */
async function forgettingProxy(peer: Peer): Promise<ForgettingProxy> {
  const proxy: ForgettingProxy = { url: '', forget: () => false, close: async () => undefined };
  const recording = await startRecordingProxy(peer.url, {
    beforeForward: async (request) => {
      if (request.headers['mcp-session-id'] && proxy.forget()) await peer.control('forget-sessions');
    },
  });
  proxy.url = recording.url;
  proxy.close = () => recording.close();
  return proxy;
}

function gateFor(serverId: string, client: McpClient) {
  const audit = new MemoryAuditSink();
  const gate = createGate({
    servers: new Map([[serverId, client]]),
    policy: createPolicy({ store: memorySettingsStore() }),
    audit,
    validator: createSchemaValidator(),
    approver: programmaticApprover(() => ({ action: 'allow', remember: 'once' })),
  });
  const call = (message: string) =>
    gate
      .call({
        serverId,
        toolName: 'echo',
        arguments: { message },
        caller: { kind: 'host', label: 'test' },
        timeoutMs: 600_000,
      })
      .then(
        (result) => result,
        (error: unknown) => error as Error,
      );
  return { audit, call };
}

describe.each(['sdk1-stateful-json', 'sdk1-stateful-sse'] as const)('%s forgetting sessions', (kind) => {
  let peer: Peer;
  let proxy: ForgettingProxy;
  beforeAll(async () => {
    peer = await startPeer(kind);
    proxy = await forgettingProxy(peer);
  });
  afterAll(async () => {
    await proxy?.close();
    await peer?.stop();
  });

  const initializes = async () =>
    (await peer.events()).messages.filter((message) => message.method === 'initialize').length;
  const connectThrough = () => connect({ url: proxy.url, id: kind, era: 'legacy' });

  it('forgotten during connect: a new session is started and the connection works', async () => {
    const before = await initializes();
    let first = true;
    proxy.forget = () => {
      const now = first;
      first = false;
      return now;
    };
    const client = await connectThrough();
    try {
      proxy.forget = () => false;
      expect(firstText(await client.callTool('echo', { message: 'after a restart' }))).toBe(
        'Echo: after a restart',
      );
      expect(await initializes()).toBe(before + 2);
    } finally {
      await client.close();
    }
  });

  it('forgotten every time during connect: 3 new sessions, then connect fails readably', async () => {
    const before = await initializes();
    proxy.forget = () => true;
    const error = await connectThrough().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    proxy.forget = () => false;
    expect(error).toBeInstanceOf(TransportError);
    expect(error?.message).toContain(
      'forgot the MCP session again (HTTP 404) after Toolgate started 3 new sessions in a row',
    );
    expect(await initializes()).toBe(before + 4);
  });

  it('forgotten every time later: the call fails after 3 new sessions, the next is refused unsent', async () => {
    proxy.forget = () => false;
    const client = await connectThrough();
    try {
      const { audit, call } = gateFor(kind, client);
      expect(firstText(((await call('while it works')) as { result: { content: unknown[] } }).result)).toBe(
        'Echo: while it works',
      );
      const before = await initializes();
      proxy.forget = () => true;
      const failed = await call('while it forgets');
      expect(failed).toBeInstanceOf(TransportError);
      expect((failed as Error).message).toContain('after Toolgate started 3 new sessions in a row');
      expect(client.failure).toBe(failed);
      expect(await initializes()).toBe(before + 3);
      expect(audit.entries[1]?.final).toMatchObject({
        outcome: 'protocol-error',
        error: { kind: 'transport' },
      });

      const seen = (await peer.events()).messages.length;
      const refused = await call('after it failed');
      expect(refused).toBeInstanceOf(ConnectionClosedError);
      expect((refused as Error).message).toContain(`${kind} cannot take calls, so nothing was sent`);
      expect((await peer.events()).messages).toHaveLength(seen);
      expect(audit.entries[2]?.refusal).toMatchObject({ outcome: 'denied' });
      expect(audit.entries[2]?.pending).toBeUndefined();
    } finally {
      proxy.forget = () => false;
      await client.close();
    }
  });
});

describe('a 2024-11-05 server that goes away', () => {
  it('leaves a failed connection: the gate refuses its calls before anything is sent', async () => {
    const peer = await startPeer('sdk1-legacy-sse');
    const client = await connect({ url: peer.url, id: 'legacy-sse', httpTransport: 'sse' });
    try {
      const { audit, call } = gateFor('legacy-sse', client);
      expect(firstText(((await call('hello')) as { result: { content: unknown[] } }).result)).toBe(
        'Echo: hello',
      );
      await peer.stop();
      await eventually('the connection to be marked failed', async () => client.failure !== undefined);
      const refused = await call('anyone there?');
      expect(refused).toBeInstanceOf(ConnectionClosedError);
      expect((refused as Error).message).toContain('legacy-sse cannot take calls, so nothing was sent');
      expect((refused as Error).message).toContain('reconnect it to call its tools');
      expect(audit.entries[1]?.refusal).toMatchObject({ outcome: 'denied' });
      expect(audit.entries[1]?.pending).toBeUndefined();
    } finally {
      await client.close();
      await peer.stop();
    }
  });
});
