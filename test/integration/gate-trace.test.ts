/**
 * W3C trace context on tool calls, proved from the server side: real peers of both eras (our SDK 1.x
 * server, legacy era; the SDK 2.x dual-era peer, 2026-07-28) record the `_meta` each tools/call carried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, type PeerKind, startPeer } from '../../e2e/support/peers.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate, type Gate } from '../../src/gate/pipeline.js';
import { createPolicy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import { InvalidTraceContextError } from '../../src/gate/trace-context.js';
import { connect, type McpClient } from '../../src/index.js';
import { createSchemaValidator } from '../../src/schema/index.js';

const HOST_TRACE = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

describe.each([
  ['sdk1-stateful-json', 'legacy'],
  ['modern', 'modern'],
] as const satisfies readonly (readonly [PeerKind, string])[])(
  'trace context to %s (%s era)',
  (kind, era) => {
    let peer: Peer;
    let client: McpClient;
    let gate: Gate;
    let audit: MemoryAuditSink;
    const caller = { kind: 'host' as const, label: 'trace test' };

    beforeAll(async () => {
      peer = await startPeer(kind);
      client = await connect({ url: peer.url, id: 'srv', era });
      audit = new MemoryAuditSink();
      gate = createGate({
        servers: new Map([['srv', client]]),
        policy: createPolicy({ store: memorySettingsStore() }),
        audit,
        validator: createSchemaValidator(),
        approver: programmaticApprover(() => ({ action: 'allow', remember: 'once' })),
      });
    });
    afterAll(async () => {
      await client?.close();
      await peer?.stop();
    });

    /** One echo call through the gate, with the trace option given (none when left out). */
    const echo = (message: string, trace?: Parameters<Gate['call']>[0]['trace']) =>
      gate.call({
        serverId: 'srv',
        toolName: 'echo',
        arguments: { message },
        caller,
        ...(trace === undefined ? {} : { trace }),
      });

    const tracedCalls = async () =>
      (await peer.events()).messages.filter((message) => message.method === 'tools/call');

    it("passes the host's traceparent and tracestate in _meta and records the ids", async () => {
      const outcome = await echo('traced', { traceparent: HOST_TRACE, tracestate: 'vendor=abc' });
      const sent = (await tracedCalls()).at(-1);
      expect(sent).toMatchObject({ traceparent: HOST_TRACE, tracestate: 'vendor=abc' });
      expect(audit.get(outcome.invocationId)?.pending).toMatchObject({
        trace: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b7', sampled: true },
      });
    });

    it('starts a new sampled trace when asked, a different one per call', async () => {
      await echo('a', 'start');
      await echo('b', 'start');
      const [first, second] = (await tracedCalls()).slice(-2);
      expect(first?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(second?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(first?.traceparent?.slice(3, 35)).not.toBe(second?.traceparent?.slice(3, 35));
    });

    it('sends no trace context unless asked', async () => {
      await echo('plain');
      expect((await tracedCalls()).at(-1)?.traceparent).toBeUndefined();
    });

    it('refuses a malformed host traceparent before anything is sent, on record', async () => {
      const before = (await tracedCalls()).length;
      const error = await echo('bad', { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidTraceContextError);
      expect((await tracedCalls()).length).toBe(before);
      expect(audit.entries.at(-1)?.refusal).toMatchObject({
        outcome: 'denied',
        reason: expect.stringMatching(/trace id is all zeros/),
      });
    });
  },
);
