/**
 * The gate in front of a server that breaks the protocol on purpose (e2e/peers/hostile.mjs), one way
 * per endpoint. Each bad answer fails its call at once with a readable error (never a timeout, never
 * an empty success), the server saw exactly one call, and the audit record says protocol-error.
 * Huge answers fail at their cap with the server unable to finish writing them; forgotten sessions
 * are replaced a bounded number of times; dropped streams are reopened a bounded number of times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate } from '../../src/gate/pipeline.js';
import { createPolicy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import { connect } from '../../src/index.js';
import {
  ConnectionClosedError,
  InvalidResponseError,
  ResponseLostError,
  TransportError,
} from '../../src/protocol/errors.js';
import { createSchemaValidator } from '../../src/schema/index.js';
import type { ConnectionLimits } from '../../src/transport/limits.js';
import { ResponseTooLargeError } from '../../src/transport/too-large.js';
import { eventually, firstText } from './peer-cases.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startPeer('hostile');
});
afterAll(async () => {
  await peer?.stop();
});

const endpoint = (name: string) => peer.url.replace(/\/plain$/, `/${name}`);

async function gateFor(name: string) {
  const client = await connect({ url: endpoint(name), id: name });
  const audit = new MemoryAuditSink();
  const gate = createGate({
    servers: new Map([[name, client]]),
    policy: createPolicy({ store: memorySettingsStore() }),
    audit,
    validator: createSchemaValidator(),
    approver: programmaticApprover(() => ({ action: 'allow', remember: 'once' })),
  });
  return { client, gate, audit };
}

const callsAt = async (name: string) =>
  (await peer.events()).messages.filter((m) => m.method === 'tools/call' && m.path === `/mcp/${name}`).length;

describe('invalid answers fail the call at once', () => {
  it.each([
    ['both-result-error', 'both "result" and "error"'],
    ['neither-result-nor-error', 'neither "result" nor "error"'],
    ['null-result', '"result" must be an object, not null'],
    ['string-result', '"result" must be an object, not a string'],
    ['content-not-array', '"content" must be an array, not an object'],
    ['content-missing', 'no "content" array'],
  ])('%s', async (name, reason) => {
    const { client, gate, audit } = await gateFor(name);
    try {
      const error = await gate
        .call({
          serverId: name,
          toolName: 'echo',
          arguments: { message: 'hi' },
          caller: { kind: 'host', label: 'test' },
          // An idle timeout no test waits for: only the bad answer can end the call.
          timeoutMs: 600_000,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toContain('invalid answer to tools/call');
      expect((error as Error).message).toContain(reason);
      expect(await callsAt(name)).toBe(1);
      expect(audit.entries[0]?.final).toMatchObject({
        outcome: 'protocol-error',
        error: { kind: 'invalid-response' },
      });
    } finally {
      await client.close();
    }
  });
});

describe('capabilities and names', () => {
  it('a server without the tools capability is never asked for tools', async () => {
    const { client } = await gateFor('no-tools-capability');
    try {
      expect(await client.listTools()).toEqual([]);
      const messages = (await peer.events()).messages.filter((m) => m.path === '/mcp/no-tools-capability');
      expect(messages.map((m) => m.method)).not.toContain('tools/list');
    } finally {
      await client.close();
    }
  });

  it('two different tools under one name are refused, and the server is not called', async () => {
    const { client, gate, audit } = await gateFor('duplicate-names');
    try {
      await expect(
        gate.call({
          serverId: 'duplicate-names',
          toolName: 'echo',
          arguments: { message: 'hi' },
          caller: { kind: 'person' },
        }),
      ).rejects.toThrow('2 different tools named "echo"');
      expect(await callsAt('duplicate-names')).toBe(0);
      expect(audit.entries[0]?.refusal?.outcome).toBe('denied');
    } finally {
      await client.close();
    }
  });
});

/*
 * Transport-level misbehaviour (issue 17, items 2, 3 and 6). The same cases are served three ways:
 * /mcp/<case> legacy Streamable HTTP, /modern/<case> 2026-07-28 Streamable HTTP, /sse/<case> the
 * 2024-11-05 HTTP+SSE transport.
 */
type Mode = 'mcp' | 'modern' | 'sse';

const at = (mode: Mode, name: string) => peer.url.replace(/\/mcp\/plain$/, `/${mode}/${name}`);

function connectAt(mode: Mode, name: string, limits?: ConnectionLimits) {
  return connect({
    url: at(mode, name),
    id: `${mode}-${name}`,
    ...(mode === 'sse'
      ? { httpTransport: 'sse' as const }
      : { era: mode === 'modern' ? 'modern' : 'legacy' }),
    ...(limits ? { limits } : {}),
  });
}

async function gateAt(mode: Mode, name: string, limits?: ConnectionLimits) {
  const client = await connectAt(mode, name, limits);
  const audit = new MemoryAuditSink();
  const serverId = `${mode}-${name}`;
  const gate = createGate({
    servers: new Map([[serverId, client]]),
    policy: createPolicy({ store: memorySettingsStore() }),
    audit,
    validator: createSchemaValidator(),
    approver: programmaticApprover(() => ({ action: 'allow', remember: 'once' })),
  });
  const call = () =>
    gate
      .call({
        serverId,
        toolName: 'echo',
        arguments: { message: 'hi' },
        caller: { kind: 'host', label: 'test' },
        // An idle timeout no test waits for: only the client's own bounds can end these calls.
        timeoutMs: 600_000,
      })
      .then(
        () => undefined,
        (error: unknown) => error as Error,
      );
  return { client, audit, call };
}

const messagesAt = async (mode: Mode, name: string) =>
  (await peer.events()).messages.filter((m) => m.path.startsWith(`/${mode}/${name}`));
const callsAtPath = async (mode: Mode, name: string) =>
  (await messagesAt(mode, name)).filter((m) => m.method === 'tools/call').length;
const resumptionsAt = async (mode: Mode, name: string) =>
  (await peer.events()).streams.filter((s) => s.path === `/${mode}/${name}` && s.headers['last-event-id']);

interface Written {
  path: string;
  bytes: number;
  finished: boolean;
  closed: boolean;
}

/** What the server managed to write of its big answer at `path`, once the connection has closed. */
async function writtenAt(path: string): Promise<Written> {
  const origin = new URL(peer.url).origin;
  return eventually(`the big answer at ${path} to end`, async () => {
    const writes = (await (await fetch(`${origin}/__writes`)).json()) as Written[];
    const record = writes.find((w) => w.path.startsWith(path));
    return record?.closed ? record : undefined;
  });
}

const MB = 1024 * 1024;

describe('bounded reading: a huge answer fails its call at the cap, unread', () => {
  it.each([
    ['mcp', 'huge-body', 'response too large (over 16 MB, limit 16 MB)'],
    ['mcp', 'huge-body-declared', 'response too large (60 MB, limit 16 MB)'],
    ['mcp', 'huge-sse-event', 'response too large (an event of over 8 MB, limit 8 MB per event)'],
    ['mcp', 'huge-sse-stream', 'response too large (over 16 MB in its event stream, limit 16 MB)'],
    ['modern', 'huge-body', 'response too large (over 16 MB, limit 16 MB)'],
    ['modern', 'huge-body-declared', 'response too large (60 MB, limit 16 MB)'],
    ['modern', 'huge-sse-event', 'response too large (an event of over 8 MB, limit 8 MB per event)'],
    ['modern', 'huge-sse-stream', 'response too large (over 16 MB in its event stream, limit 16 MB)'],
    ['sse', 'huge-sse-event', 'response too large (an event of over 8 MB, limit 8 MB per event)'],
  ] as const)('%s/%s', async (mode, name, expected) => {
    const { client, audit, call } = await gateAt(mode, name);
    try {
      const error = await call();
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error?.message).toContain(expected);
      // Names the server and the method.
      expect(error?.message).toContain(`${at(mode, name)} answered tools/call`);
      // Once: too large is not lost, so even the modern era does not send it again.
      expect(await callsAtPath(mode, name)).toBe(1);
      expect(audit.entries[0]?.final).toMatchObject({
        outcome: 'protocol-error',
        error: { kind: 'too-large' },
      });
      expect(audit.entries[0]?.final?.result).toBeUndefined();
      // The server could not push its 60 MB: the client went away well before.
      const written = await writtenAt(mode === 'sse' ? `/sse/${name}` : `/${mode}/${name}`);
      expect(written.finished).toBe(false);
      expect(written.bytes).toBeLessThan(40 * MB);
    } finally {
      await client.close();
    }
  });

  it('a larger cap for one server lets its big answer through', async () => {
    const client = await connectAt('mcp', 'huge-sse-stream', { maxBodyBytes: 80 * MB });
    try {
      const result = await client.callTool('echo', { message: 'hi' }, { timeoutMs: 600_000 });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    } finally {
      await client.close();
    }
  });

  it('over 2024-11-05 HTTP+SSE the stream is gone with the event: the connection fails, later calls are refused unsent', async () => {
    const { client, audit, call } = await gateAt('sse', 'huge-sse-event');
    try {
      expect(await call()).toBeInstanceOf(ResponseTooLargeError);
      await eventually('the connection to be marked failed', async () => client.failure !== undefined);
      const before = (await messagesAt('sse', 'huge-sse-event')).length;
      const refused = await call();
      expect(refused).toBeInstanceOf(ConnectionClosedError);
      expect(refused?.message).toContain('sse-huge-sse-event cannot take calls, so nothing was sent');
      expect((await messagesAt('sse', 'huge-sse-event')).length).toBe(before);
      expect(audit.entries[1]?.refusal).toMatchObject({ outcome: 'denied' });
      expect(audit.entries[1]?.pending).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe('a 2024-11-05 endpoint that never names its message endpoint', () => {
  it('connect() fails with that cause, within the connect timeout, not with the 405 of the Streamable HTTP probe', async () => {
    const url = at('sse', 'no-endpoint');
    // Automatic transport choice: POSTs are refused 405, then the event stream opens and says nothing.
    const error = await connect({ url, id: 'sse-no-endpoint', connectTimeoutMs: 1_000 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).failure).toBe('no-endpoint');
    expect(error?.message).toContain(`${url}: no endpoint announced within the connect timeout (1 s)`);
    expect(error?.message).not.toContain('405');
    // The event stream was opened (once): this is the endpoint's own failure.
    expect((await peer.events()).streams.filter((s) => s.path === '/sse/no-endpoint')).toHaveLength(1);
  });
});

describe('sessions by the specification', () => {
  it('a server that forgets every session gets 3 new ones during connect, then connect fails readably', async () => {
    const error = await connectAt('mcp', 'forget-sessions').then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect(error?.message).toContain(
      'forgot the MCP session again (HTTP 404) after Toolgate started 3 new sessions',
    );
    const messages = await messagesAt('mcp', 'forget-sessions');
    const initializes = messages.filter((m) => m.method === 'initialize');
    expect(initializes).toHaveLength(4);
    // Each new session starts with an initialize that carries no session id.
    for (const message of initializes) expect(message.headers['mcp-session-id']).toBeUndefined();
    expect(messages.map((m) => m.method)).not.toContain('tools/list');
  });

  it('a session forgotten during connect is replaced, and the connection works', async () => {
    const client = await connectAt('mcp', 'forget-first-session');
    try {
      expect(firstText(await client.callTool('echo', { message: 'still here' }))).toBe('Echo: still here');
      const messages = await messagesAt('mcp', 'forget-first-session');
      expect(messages.filter((m) => m.method === 'initialize')).toHaveLength(2);
      expect(messages.find((m) => m.method === 'tools/call')?.headers['mcp-session-id']).toBe('sess-2');
    } finally {
      await client.close();
    }
  });

  it('a server that forgets sessions later: the call fails after 3 new sessions, and the gate refuses the next unsent', async () => {
    const { client, audit, call } = await gateAt('mcp', 'forget-after-call');
    try {
      const first = await call();
      expect(first).toBeInstanceOf(TransportError);
      expect(first?.message).toContain('after Toolgate started 3 new sessions in a row');
      expect(client.failure).toBe(first);
      expect(audit.entries[0]?.final).toMatchObject({ outcome: 'protocol-error' });
      const before = await messagesAt('mcp', 'forget-after-call');
      expect(before.filter((m) => m.method === 'initialize')).toHaveLength(4);
      expect(before.filter((m) => m.method === 'tools/call')).toHaveLength(1);

      const refused = await call();
      expect(refused).toBeInstanceOf(ConnectionClosedError);
      expect(refused?.message).toContain('mcp-forget-after-call cannot take calls, so nothing was sent');
      expect(await messagesAt('mcp', 'forget-after-call')).toHaveLength(before.length);
      expect(audit.entries[1]?.refusal).toMatchObject({ outcome: 'denied' });
    } finally {
      await client.close();
    }
  });

  it.each([
    ['bad-session-space', 'character 4 is a space (U+0020)', 'has a space'],
    ['bad-session-long', 'it is 2000 characters long', 'xxxxxxxxxx'],
    ['bad-session-latin1', 'character 4 is U+00E9', 'café'],
  ])('%s: the session id is refused with a readable error and never used', async (name, reason, id) => {
    const error = await connectAt('mcp', name).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect(error?.message).toContain('assigned an MCP session id Toolgate cannot use');
    expect(error?.message).toContain(reason);
    expect(error?.message).not.toContain(id);
    expect((await messagesAt('mcp', name)).map((m) => m.method)).toEqual(['initialize']);
  });
});

describe('reconnects are bounded', () => {
  // Short waits keep the test quick; the floor for `retry: 0` stays the default 500 ms.
  const quick: ConnectionLimits = { maxReconnectDelayMs: 1_000 };

  it.each([
    // Each reopened stream opens fine and closes empty: given up after limits.maxEmptyStreams.
    ['retry-zero', 3, 'closed it at once without sending anything'],
    // Each reopened stream breaks: given up after limits.maxReconnects.
    ['drop-streams', 5, '5 attempts to reopen it failed'],
  ])('legacy %s: %i reopen attempts, then the call fails as lost', async (name, attempts, why) => {
    const { client, audit, call } = await gateAt('mcp', name, quick);
    try {
      const error = await call();
      expect(error).toBeInstanceOf(ResponseLostError);
      expect(error?.message).toContain(
        `The answer of server 'mcp-${name}' to tools/call for tool 'echo' was lost`,
      );
      expect(error?.message).toContain(why);
      expect(await resumptionsAt('mcp', name)).toHaveLength(attempts);
      expect(await callsAtPath('mcp', name)).toBe(1);
      expect(audit.entries[0]?.final).toMatchObject({ outcome: 'protocol-error', error: { kind: 'lost' } });
    } finally {
      await client.close();
    }
  });

  it.each(['retry-zero', 'drop-streams'])(
    'modern %s: no resumption; sent again once, on record, then lost',
    async (name) => {
      const { client, audit, call } = await gateAt('modern', name, quick);
      try {
        const error = await call();
        expect(error).toBeInstanceOf(ResponseLostError);
        expect(await resumptionsAt('modern', name)).toHaveLength(0);
        expect(await callsAtPath('modern', name)).toBe(2);
        expect(audit.entries[0]?.resends).toHaveLength(1);
        expect(audit.entries[0]?.final).toMatchObject({ outcome: 'protocol-error', error: { kind: 'lost' } });
      } finally {
        await client.close();
      }
    },
  );

  it('2024-11-05 drop-streams: the waiting call fails as lost at once, and the connection is failed', async () => {
    const { client, audit, call } = await gateAt('sse', 'drop-streams');
    try {
      const error = await call();
      expect(error).toBeInstanceOf(ResponseLostError);
      expect(error?.message).toContain('a 2024-11-05 stream cannot be resumed');
      expect(audit.entries[0]?.final).toMatchObject({ outcome: 'protocol-error', error: { kind: 'lost' } });
      await eventually('the connection to be marked failed', async () => client.failure !== undefined);
      expect(await call()).toBeInstanceOf(ConnectionClosedError);
      expect(await callsAtPath('sse', 'drop-streams')).toBe(1);
    } finally {
      await client.close();
    }
  });
});
