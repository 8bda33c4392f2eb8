/**
 * The caller-aware gate in front of a real SDK 1.x server that records what reached it: a trusted
 * server's "read-only" tool runs unasked for the host, but a web site is asked; one site's remembered
 * approval covers neither another site nor the host; and a call the client re-sends after the server
 * forgot its session is recorded as two sends, which is what the server saw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { DeniedError } from '../../src/gate/errors.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate, type Gate } from '../../src/gate/pipeline.js';
import { createPolicy, type Policy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import type { ApprovalAnswer, ApprovalRequest, Caller } from '../../src/gate/types.js';
import { connect, type McpClient } from '../../src/index.js';
import { createSchemaValidator } from '../../src/schema/index.js';
import { firstText } from './peer-cases.js';

const HOST: Caller = { kind: 'host', label: 'the assistant' };
const SITE_A: Caller = { kind: 'site', label: 'http://127.0.0.1:4100' };
const SITE_B: Caller = { kind: 'site', label: 'http://127.0.0.1:4200' };

describe('callers in front of a real server', () => {
  let peer: Peer;
  let client: McpClient;
  let gate: Gate;
  let policy: Policy;
  let audit: MemoryAuditSink;
  let approvals: ApprovalRequest[];
  let answer: (request: ApprovalRequest) => ApprovalAnswer;

  beforeAll(async () => {
    peer = await startPeer('sdk1-stateful-json');
    client = await connect({ url: peer.url, id: 'files' });
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  // Each test gets its own policy, log and approver: no state leaks between them.
  const fresh = () => {
    policy = createPolicy({ store: memorySettingsStore() });
    audit = new MemoryAuditSink();
    approvals = [];
    answer = () => ({ action: 'deny', reason: 'not now' });
    gate = createGate({
      servers: new Map([['files', client]]),
      policy,
      audit,
      validator: createSchemaValidator(),
      approver: programmaticApprover((request) => {
        approvals.push(request);
        return answer(request);
      }),
    });
  };
  const serverCalls = async (tool: string) =>
    (await peer.events()).calls.filter((c) => c.tool === tool).length;

  it("a trusted server's read-only claim runs unasked for the host, but a web site is asked", async () => {
    fresh();
    await policy.setTrust('files', 'trusted');
    const before = await serverCalls('wipe');
    await gate.call({ serverId: 'files', toolName: 'wipe', arguments: {}, caller: HOST });
    expect(approvals).toHaveLength(0);
    expect(await serverCalls('wipe')).toBe(before + 1);

    const error = await gate
      .call({ serverId: 'files', toolName: 'wipe', arguments: {}, caller: SITE_A })
      .catch((e: unknown) => e);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]?.caller).toEqual(SITE_A);
    expect(approvals[0]?.decision.source).toEqual({ kind: 'default', reason: 'caller-must-be-approved' });
    expect(error).toBeInstanceOf(DeniedError);
    // The site's call never reached the server.
    expect(await serverCalls('wipe')).toBe(before + 1);
  });

  it("one site's 'always allow' covers neither another site nor the host", async () => {
    fresh();
    answer = () => ({ action: 'allow', remember: 'always', decidedBy: 'Ada' });
    const before = await serverCalls('echo');
    await gate.call({ serverId: 'files', toolName: 'echo', arguments: { message: 'a' }, caller: SITE_A });
    await gate.call({
      serverId: 'files',
      toolName: 'echo',
      arguments: { message: 'a again' },
      caller: SITE_A,
    });
    expect(approvals).toHaveLength(1);

    answer = () => ({ action: 'deny', reason: 'not you' });
    for (const caller of [SITE_B, HOST])
      await expect(
        gate.call({ serverId: 'files', toolName: 'echo', arguments: { message: 'other' }, caller }),
      ).rejects.toBeInstanceOf(DeniedError);
    expect(approvals.map((a) => a.caller)).toEqual([SITE_A, SITE_B, HOST]);
    expect(await serverCalls('echo')).toBe(before + 2);
    const grants = await policy.listGrants();
    expect(grants.map((g) => [g.caller, g.toolName, g.scope])).toEqual([[SITE_A, 'echo', 'always']]);
  });

  it('a call re-sent after the server forgot the session is recorded as two sends, as the server saw', async () => {
    fresh();
    answer = () => ({ action: 'allow', remember: 'once' });
    await gate.call({ serverId: 'files', toolName: 'echo', arguments: { message: 'warm up' }, caller: HOST });
    expect(await peer.control('forget-sessions')).toMatchObject({ forgotten: 1 });
    const outcome = await gate.call({
      serverId: 'files',
      toolName: 'echo',
      arguments: { message: 'twice' },
      caller: HOST,
    });
    expect(firstText(outcome.result)).toBe('Echo: twice');
    const arrived = (await peer.events()).messages.filter(
      (m) => m.method === 'tools/call' && m.tool === 'echo',
    );
    // The server received the call under the forgotten session (refused) and again under the new one.
    const sessions = new Set(arrived.slice(-2).map((m) => m.headers['mcp-session-id']));
    expect(sessions.size).toBe(2);
    const entry = audit.get(outcome.invocationId)!;
    expect(entry.pending).toBeDefined();
    expect(entry.resends).toEqual([expect.objectContaining({ reason: 'session-expired', attempt: 2 })]);
    expect(entry.final?.outcome).toBe('success');
  });
});
