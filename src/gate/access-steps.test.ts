/**
 * Reads and prompt gets through the gate, against a scripted peer: who is asked, what the approver
 * sees, what is recorded before the request leaves and when it returns, what is refused.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import { McpClient } from '../client/index.js';
import { type JsonObject, type JsonRpcRequest, RpcEngine } from '../protocol/index.js';
import { createSchemaValidator } from '../schema/index.js';
import { programmaticApprover } from './approvers.js';
import { DeniedError } from './errors.js';
import { MemoryAuditSink } from './memory-audit.js';
import { createGate, type GateEvent } from './pipeline.js';
import { createPolicy } from './policy.js';
import { memorySettingsStore } from './settings-store.js';
import type { AccessApprovalRequest, ApprovalAnswer, Approver } from './types.js';

const PROMPTS = {
  prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'api_key' }] }],
};

function setup(
  options: {
    answer?: (request: JsonRpcRequest) => JsonObject | undefined;
    approveAccess?: ((request: AccessApprovalRequest) => ApprovalAnswer) | null;
    maxReadBytes?: number;
  } = {},
) {
  const order: string[] = [];
  const transport = new ScriptedTransport((request, peer) => {
    order.push(`sent ${request.method}`);
    const result =
      options.answer?.(request) ??
      (request.method === 'prompts/list'
        ? PROMPTS
        : request.method === 'prompts/get'
          ? { messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] }
          : request.method === 'completion/complete'
            ? { completion: { values: ['x'] } }
            : { contents: [{ uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'secret plans' }] });
    peer.reply(request, result);
  });
  const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
  const client = new McpClient(
    'srv',
    engine,
    {
      era: 'legacy',
      protocolVersion: '2025-11-25',
      capabilities: { resources: {}, prompts: {}, completions: {} },
    },
    { clientInfo: { name: 't', version: '1' }, capabilities: {}, timeoutMs: 5_000 },
    {},
  );
  const memory = new MemoryAuditSink();
  const audit = {
    pending: async (record: Parameters<MemoryAuditSink['pending']>[0]) => {
      order.push('pending');
      await memory.pending(record);
    },
    resent: (record: Parameters<MemoryAuditSink['resent']>[0]) => memory.resent(record),
    final: async (record: Parameters<MemoryAuditSink['final']>[0]) => {
      order.push('final');
      await memory.final(record);
    },
    refusal: (record: Parameters<MemoryAuditSink['refusal']>[0]) => memory.refusal(record),
  };
  const asked: AccessApprovalRequest[] = [];
  const approver: Approver = programmaticApprover(() => ({ action: 'deny', reason: 'tools not expected' }));
  if (options.approveAccess !== null)
    approver.approveAccess = async (request) => {
      asked.push(request);
      return options.approveAccess
        ? options.approveAccess(request)
        : { action: 'allow', remember: 'once', decidedBy: 'tester' };
    };
  const gate = createGate({
    servers: new Map([['srv', client]]),
    policy: createPolicy({ store: memorySettingsStore() }),
    audit,
    validator: createSchemaValidator(),
    approver,
    ...(options.maxReadBytes ? { maxReadBytes: options.maxReadBytes } : {}),
  });
  const events: GateEvent[] = [];
  gate.onEvent((event) => events.push(event));
  return { gate, memory, order, asked, events, transport };
}

describe('reads and prompt gets through the gate', () => {
  it("allows the person's own read, records it before it leaves and when it returns, with size and digest", async () => {
    const { gate, memory, order, asked } = setup();
    const read = await gate.read({ serverId: 'srv', uri: 'file:///notes.txt', caller: { kind: 'person' } });
    expect(read.result.contents[0]).toMatchObject({ text: 'secret plans' });
    expect(asked).toHaveLength(0);
    expect(order).toEqual(['pending', 'sent resources/read', 'final']);
    const entry = memory.entries[0];
    expect(entry?.pending).toMatchObject({
      toolName: 'resources/read',
      arguments: { uri: 'file:///notes.txt' },
      decision: { verdict: 'allow', source: { kind: 'default', reason: 'own-access' } },
    });
    expect(entry?.final?.outcome).toBe('success');
    expect(entry?.final?.received?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(entry?.final?.received?.bytes).toBeGreaterThan(0);
    expect(read.received).toEqual(entry?.final?.received);
  });

  it("asks for a site's read, showing the URI; a denial is recorded and nothing is sent", async () => {
    const { gate, memory, asked, transport } = setup({
      approveAccess: () => ({ action: 'deny', reason: 'no' }),
    });
    const error = await gate
      .read({
        serverId: 'srv',
        uri: 'file:///notes.txt',
        caller: { kind: 'site', label: 'https://a.example' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeniedError);
    expect(asked[0]).toMatchObject({
      method: 'resources/read',
      target: { kind: 'resource', uri: 'file:///notes.txt' },
    });
    expect(asked[0]?.caller).toEqual({ kind: 'site', label: 'https://a.example' });
    expect(transport.sentWith('resources/read')).toHaveLength(0);
    expect(memory.entries[0]?.refusal).toMatchObject({ outcome: 'denied', toolName: 'resources/read' });
  });

  it('denies reads for callers other than the person when the approver cannot show them', async () => {
    const { gate, memory, transport } = setup({ approveAccess: null });
    const error = await gate
      .read({ serverId: 'srv', uri: 'file:///notes.txt', caller: { kind: 'host', label: 'agent' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeniedError);
    expect(transport.sentWith('resources/read')).toHaveLength(0);
    expect(memory.entries[0]?.refusal?.outcome).toBe('denied');
  });

  it("asks for an app's prompt get with the prompt, its arguments and its listing, then sends it", async () => {
    const { gate, memory, asked, events } = setup();
    const got = await gate.getPrompt({
      serverId: 'srv',
      name: 'greet',
      arguments: { who: 'Ada', api_key: 'sk-live-123' },
      caller: { kind: 'mcp-app', label: 'ui://x', server: 'srv' },
    });
    expect(got.result.messages).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      method: 'prompts/get',
      target: { kind: 'prompt', name: 'greet', arguments: { who: 'Ada', api_key: 'sk-live-123' } },
      listed: { name: 'greet' },
    });
    expect(memory.entries[0]?.pending).toMatchObject({ toolName: 'prompts/get', approvedBy: 'tester' });
    expect(events.map((e) => e.type)).toContain('accessed');
  });

  it("remembers an approved read for that caller and URI only, and a prompt's until its listing changes", async () => {
    let prompts: JsonObject = PROMPTS;
    const { gate, memory, asked } = setup({
      approveAccess: () => ({ action: 'allow', remember: 'session', decidedBy: 'tester' }),
      answer: (request) => (request.method === 'prompts/list' ? prompts : undefined),
    });
    const site = { kind: 'site', label: 'https://a.example' } as const;
    await gate.read({ serverId: 'srv', uri: 'file:///notes.txt', caller: site });
    await gate.read({ serverId: 'srv', uri: 'file:///notes.txt', caller: site });
    expect(asked).toHaveLength(1);
    expect(memory.entries[1]?.pending?.decision).toMatchObject({
      verdict: 'allow',
      source: { kind: 'remembered', scope: 'session' },
    });
    // Another URI, and the same URI for another caller, are asked again.
    await gate.read({ serverId: 'srv', uri: 'file:///other.txt', caller: site });
    await gate.read({
      serverId: 'srv',
      uri: 'file:///notes.txt',
      caller: { kind: 'site', label: 'https://b.example' },
    });
    expect(asked).toHaveLength(3);

    const args = { who: 'Ada' };
    await gate.getPrompt({ serverId: 'srv', name: 'greet', arguments: args, caller: site });
    await gate.getPrompt({ serverId: 'srv', name: 'greet', arguments: { who: 'Bo' }, caller: site });
    expect(asked).toHaveLength(4);
    prompts = { prompts: [{ name: 'greet', description: 'now different', arguments: [{ name: 'who' }] }] };
    await gate.getPrompt({ serverId: 'srv', name: 'greet', arguments: args, caller: site });
    expect(asked).toHaveLength(5);
    expect(asked[4]?.decision.source).toEqual({ kind: 'default', reason: 'definition-changed' });
  });

  it('refuses a prompt get that misses a required argument, on record, before it leaves', async () => {
    const { gate, memory, transport } = setup();
    await expect(
      gate.getPrompt({ serverId: 'srv', name: 'greet', caller: { kind: 'person' } }),
    ).rejects.toThrow('"who"');
    expect(transport.sentWith('prompts/get')).toHaveLength(0);
    expect(memory.entries[0]?.refusal?.outcome).toBe('invalid-arguments');
  });

  it('refuses an answer over the size cap after recording it as invalid output', async () => {
    const { gate, memory } = setup({ maxReadBytes: 4 });
    await expect(
      gate.read({ serverId: 'srv', uri: 'file:///notes.txt', caller: { kind: 'person' } }),
    ).rejects.toThrow('more than the 4');
    expect(memory.entries[0]?.final?.outcome).toBe('invalid-output');
  });

  it('passes completions without asking, and shows a secret-looking argument redacted', async () => {
    const { gate, asked, events } = setup();
    const result = await gate.complete({
      serverId: 'srv',
      caller: { kind: 'person' },
      params: {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'api_key', value: 'sk-live-123' },
      },
    });
    expect(result.completion.values).toEqual(['x']);
    expect(asked).toHaveLength(0);
    const shown = events.find((e) => e.type === 'completion');
    expect(JSON.stringify(shown)).not.toContain('sk-live-123');
  });
});
