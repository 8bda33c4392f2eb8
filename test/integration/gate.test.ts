/**
 * The gate against real servers: an SDK 1.x server of ours (which records what reached it) and
 * @modelcontextprotocol/server-everything. Every "nothing was sent" claim is proved from the server side.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { DeniedError, InvalidArgumentsError } from '../../src/gate/errors.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate, type Gate } from '../../src/gate/pipeline.js';
import { createPolicy, type Policy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../src/gate/types.js';
import { connect, type McpClient } from '../../src/index.js';
import { createSchemaValidator } from '../../src/schema/index.js';
import { type RecordingProxy, startRecordingProxy } from '../support/recording-proxy.js';
import { eventually, firstText } from './peer-cases.js';

interface Harness {
  gate: Gate;
  policy: Policy;
  audit: MemoryAuditSink;
  approvals: ApprovalRequest[];
  answer: (request: ApprovalRequest) => ApprovalAnswer;
}

function harness(serverId: string, client: McpClient): Harness {
  const approvals: ApprovalRequest[] = [];
  const policy = createPolicy({ store: memorySettingsStore() });
  const audit = new MemoryAuditSink();
  const h: Harness = {
    policy,
    audit,
    approvals,
    answer: () => ({ action: 'allow', remember: 'once', decidedBy: 'integration test' }),
    gate: createGate({
      servers: new Map([[serverId, client]]),
      policy,
      audit,
      validator: createSchemaValidator(),
      approver: programmaticApprover((request) => {
        approvals.push(request);
        return h.answer(request);
      }),
    }),
  };
  return h;
}

describe('the gate in front of an SDK 1.x server', () => {
  let peer: Peer;
  let client: McpClient;
  let h: Harness;
  const caller = { kind: 'host' as const, label: 'integration test' };

  beforeAll(async () => {
    peer = await startPeer('sdk1-stateful-sse');
    client = await connect({ url: peer.url, id: 'sdk1' });
    h = harness('sdk1', client);
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  const callsOf = async (tool: string) => (await peer.events()).calls.filter((c) => c.tool === tool);

  it('invalid arguments never reach the server', async () => {
    const error = await h.gate
      .call({ serverId: 'sdk1', toolName: 'add', arguments: { a: 1, b: 'two' }, caller })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    expect((error as InvalidArgumentsError).issues[0]).toMatchObject({ path: 'b' });
    // Not even a tools/call message arrived, let alone a handler run.
    expect((await peer.events()).messages.filter((m) => m.method === 'tools/call')).toHaveLength(0);
  });

  it('an approved call reaches the server with the approved arguments', async () => {
    const outcome = await h.gate.call({
      serverId: 'sdk1',
      toolName: 'add',
      arguments: { a: 2, b: 3 },
      caller,
    });
    expect(firstText(outcome.result)).toBe('5');
    expect(await callsOf('add')).toEqual([{ tool: 'add', arguments: { a: 2, b: 3 } }]);
  });

  it('a denial sends nothing', async () => {
    h.answer = () => ({ action: 'deny', reason: 'no echo today' });
    await expect(
      h.gate.call({ serverId: 'sdk1', toolName: 'echo', arguments: { message: 'hi' }, caller }),
    ).rejects.toBeInstanceOf(DeniedError);
    expect(await callsOf('echo')).toHaveLength(0);
    h.answer = () => ({ action: 'allow', remember: 'once' });
  });

  it('a lying read-only annotation from an untrusted server still asks', async () => {
    const before = h.approvals.length;
    await h.gate.call({ serverId: 'sdk1', toolName: 'wipe', arguments: {}, caller });
    expect(h.approvals.length).toBe(before + 1);
    expect(h.approvals.at(-1)!.annotations).toEqual({
      claims: { readOnlyHint: true, destructiveHint: false },
      trusted: false,
    });
  });

  it('a changed definition re-asks and shows what changed (rug pull)', async () => {
    h.answer = () => ({ action: 'allow', remember: 'always' });
    await h.gate.call({ serverId: 'sdk1', toolName: 'echo', arguments: { message: 'first' }, caller });
    const asked = h.approvals.length;
    await h.gate.call({ serverId: 'sdk1', toolName: 'echo', arguments: { message: 'second' }, caller });
    expect(h.approvals.length).toBe(asked); // remembered: no question

    await peer.control('rug-pull');
    await eventually('the list change to reach the catalog', async () =>
      (await client.listTools()).find((t) => t.name === 'echo')?.description?.includes('IMPORTANT'),
    );
    h.answer = () => ({ action: 'deny', reason: 'definition changed' });
    await expect(
      h.gate.call({ serverId: 'sdk1', toolName: 'echo', arguments: { message: 'third' }, caller }),
    ).rejects.toBeInstanceOf(DeniedError);
    const request = h.approvals.at(-1)!;
    expect(h.approvals.length).toBe(asked + 1);
    expect(request.definitionChange?.changes.some((line) => line.field === 'description')).toBe(true);
    expect(request.poisoning.some((flag) => flag.kind === 'instruction-markup')).toBe(true);
    expect((await callsOf('echo')).map((c) => c.arguments.message)).toEqual(['first', 'second']);
  });
});

describe('the gate in front of server-everything', () => {
  let peer: Peer;
  let proxy: RecordingProxy;
  let client: McpClient;
  let h: Harness;
  beforeAll(async () => {
    peer = await startPeer('everything-streamable');
    // server-everything keeps no record of calls: a recording proxy at its door does.
    proxy = await startRecordingProxy(peer.url);
    client = await connect({ url: proxy.url, id: 'everything' });
  });
  // A harness (gate, policy, approvals, audit) per test: no test depends on another's state.
  beforeEach(() => {
    h = harness('everything', client);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await peer?.stop();
  });

  it('validates, asks, calls and checks structured output against the outputSchema', async () => {
    const before = proxy.toolCalls().length;
    const outcome = await h.gate.call({
      serverId: 'everything',
      toolName: 'get-structured-content',
      arguments: { location: 'New York' },
      caller: { kind: 'person' },
    });
    expect(h.approvals).toHaveLength(1);
    expect(outcome.outputValidation).toMatchObject({ status: 'valid' });
    expect(proxy.toolCalls().slice(before)).toEqual(['get-structured-content']);
  });

  it('stops arguments that break the tool schema before they are sent', async () => {
    const before = proxy.toolCalls().length;
    await expect(
      h.gate.call({ serverId: 'everything', toolName: 'echo', arguments: {}, caller: { kind: 'person' } }),
    ).rejects.toBeInstanceOf(InvalidArgumentsError);
    expect(h.approvals).toEqual([]);
    expect(h.audit.entries.at(-1)!.refusal).toMatchObject({ outcome: 'invalid-arguments' });
    // Nothing reached the server; the same tool with valid arguments does (the proxy sees calls).
    expect(proxy.toolCalls().slice(before)).toEqual([]);
    await h.gate.call({
      serverId: 'everything',
      toolName: 'echo',
      arguments: { message: 'ok' },
      caller: { kind: 'person' },
    });
    expect(proxy.toolCalls().slice(before)).toEqual(['echo']);
  });
});
