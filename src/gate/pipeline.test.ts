/**
 * The pipeline's wiring, step by step, against a scripted in-memory server (a test double, so each
 * test sees exactly what was sent and when). Real servers: test/integration/gate.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import { McpClient } from '../client/index.js';
import {
  type JsonObject,
  type JsonRpcRequest,
  RequestCancelledError,
  RequestTimeoutError,
  RpcEngine,
  type Tool,
} from '../protocol/index.js';
import { createSchemaValidator } from '../schema/index.js';
import { programmaticApprover } from './approvers.js';
import { AuditUnavailableError, DeniedError, InvalidArgumentsError } from './errors.js';
import { MemoryAuditSink } from './memory-audit.js';
import { errorForModel, resultForModel } from './model-result.js';
import { createGate, type Gate, type GateEvent } from './pipeline.js';
import { createPolicy } from './policy.js';
import { memorySettingsStore } from './settings-store.js';
import type { ApprovalAnswer, ApprovalRequest, AuditSink } from './types.js';

const weather: Tool = {
  name: 'weather',
  description: 'Weather for a city',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
    required: ['city'],
  },
  outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] },
};
const lookup: Tool = {
  name: 'lookup',
  inputSchema: { type: 'object' },
  annotations: { readOnlyHint: true },
};

interface Setup {
  tools?: Tool[];
  answer?: (request: JsonRpcRequest) => JsonObject | undefined;
  approve?: (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;
  audit?: AuditSink;
  onAuditFailure?: 'refuse' | 'warn';
  now?: () => number;
}

async function setup(options: Setup = {}) {
  const tools = options.tools ?? [weather, lookup];
  const transport = new ScriptedTransport((request, peer) => {
    if (request.method === 'tools/list') return peer.reply(request, { tools });
    const result = options.answer?.(request) ?? {
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { temp: 21 },
    };
    peer.reply(request, result);
  });
  const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
  const client = new McpClient(
    'srv',
    engine,
    { era: 'legacy', protocolVersion: '2025-11-25', capabilities: { tools: {} } },
    { clientInfo: { name: 't', version: '1' }, capabilities: {}, timeoutMs: 5_000 },
    {},
  );
  const policy = createPolicy({ store: memorySettingsStore() });
  const audit = options.audit ?? new MemoryAuditSink();
  const approvals: ApprovalRequest[] = [];
  const gate = createGate({
    servers: new Map([['srv', client]]),
    policy,
    audit,
    validator: createSchemaValidator(),
    approver: programmaticApprover(async (request) => {
      approvals.push(request);
      return options.approve
        ? options.approve(request)
        : { action: 'allow', remember: 'once', decidedBy: 'test' };
    }),
    ...(options.onAuditFailure ? { onAuditFailure: options.onAuditFailure } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const sentCalls = () => transport.sentWith('tools/call') as JsonRpcRequest[];
  return { gate, policy, audit, approvals, transport, sentCalls };
}

const call = (
  args: JsonObject,
  extra: Partial<Parameters<ReturnType<typeof createGate>['call']>[0]> = {},
) => ({
  serverId: 'srv',
  toolName: 'weather',
  arguments: args,
  caller: { kind: 'host' as const, label: 'test host' },
  ...extra,
});

describe('the gate pipeline', () => {
  it('hands the approver the batch a call belongs to; each call of a batch is recorded alone', async () => {
    const memory = new MemoryAuditSink();
    const { gate, approvals } = await setup({
      audit: memory,
      approve: (request) =>
        request.batch?.index === 1
          ? { action: 'deny', decidedBy: 'test' }
          : { action: 'allow', remember: 'once', decidedBy: 'test' },
    });
    const batch = { id: 'b1', size: 2 };
    const [first, second] = await Promise.allSettled([
      gate.call(call({ city: 'Oslo' }, { batch: { ...batch, index: 0 } })),
      gate.call(call({ city: 'Rome' }, { batch: { ...batch, index: 1 } })),
    ]);
    expect(approvals.map((request) => request.batch)).toEqual(
      expect.arrayContaining([
        { id: 'b1', size: 2, index: 0 },
        { id: 'b1', size: 2, index: 1 },
      ]),
    );
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    // One entry per call: the allowed one sent, the denied one refused.
    expect(memory.entries).toHaveLength(2);
    expect(
      memory.entries
        .map((entry) => entry.pending?.arguments.city ?? entry.refusal?.proposedArguments.city)
        .sort(),
    ).toEqual(['Oslo', 'Rome']);
  });

  it('runs an approved call end to end and records pending before the request leaves', async () => {
    const order: string[] = [];
    const memory = new MemoryAuditSink();
    let sentBeforePending = -1;
    const { gate, sentCalls } = await setup({
      audit: {
        pending: async (record) => {
          sentBeforePending = sentCalls().length;
          order.push('pending');
          await memory.pending(record);
        },
        final: async (record) => {
          order.push(`final:${record.outcome}`);
          await memory.final(record);
        },
        refusal: (record) => memory.refusal(record),
        resent: (record) => memory.resent(record),
      },
    });
    const outcome = await gate.call(call({ city: 'Oslo' }));
    expect(sentBeforePending).toBe(0);
    expect(order).toEqual(['pending', 'final:success']);
    expect(sentCalls()[0]!.params).toMatchObject({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(outcome.outputValidation).toMatchObject({ status: 'valid' });
    const entry = memory.get(outcome.invocationId)!;
    expect(entry.pending).toMatchObject({
      arguments: { city: 'Oslo' },
      decision: { verdict: 'ask' },
      approvedBy: 'test',
    });
    expect(entry.pending!.definitionHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(resultForModel(outcome)).toEqual({ isError: false, text: 'ok', structured: { temp: 21 } });
    expect(outcome.proposedArguments).toBeUndefined();
  });

  it("times the server apart from the person's approval: from the request leaving to its answer", async () => {
    let clock = 1_000;
    const { gate } = await setup({
      now: () => clock,
      approve: () => {
        clock += 5_000; // the person takes five seconds
        return { action: 'allow', remember: 'once' };
      },
      answer: () => {
        clock += 120; // the server takes 120 ms
        return undefined;
      },
    });
    const outcome = await gate.call(call({ city: 'Oslo' }));
    expect(outcome.timings).toEqual({ sentAt: 6_000, receivedAt: 6_120 });
  });

  it('stops invalid arguments before anything is sent, with readable paths', async () => {
    const { gate, sentCalls, approvals, audit } = await setup();
    const error = await gate.call(call({ days: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentsError);
    expect((error as InvalidArgumentsError).issues.map((i) => i.path).sort()).toEqual(['city', 'days']);
    expect(sentCalls()).toHaveLength(0);
    expect(approvals).toHaveLength(0);
    expect((audit as MemoryAuditSink).entries[0]!.refusal).toMatchObject({ outcome: 'invalid-arguments' });
    expect(errorForModel(error).text).toContain('Correct the arguments');
  });

  it('a deny rule sends nothing and asks nobody', async () => {
    const { gate, policy, sentCalls, approvals } = await setup();
    await policy.saveRule({ verdict: 'deny', server: 'srv', tool: 'weather' });
    const error = await gate.call(call({ city: 'Oslo' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeniedError);
    expect((error as DeniedError).by).toBe('policy');
    expect(sentCalls()).toHaveLength(0);
    expect(approvals).toHaveLength(0);
  });

  it('a person who denies sends nothing, and the reason reaches the caller', async () => {
    const { gate, sentCalls, audit } = await setup({
      approve: () => ({ action: 'deny', reason: 'not today' }),
    });
    const error = await gate.call(call({ city: 'Oslo' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeniedError);
    expect((error as DeniedError).message).toContain('not today');
    // The refusal is on record, with the person's reason.
    expect((audit as MemoryAuditSink).entries[0]!.refusal).toMatchObject({
      outcome: 'denied',
      reason: 'denied by the person: not today',
    });
    expect(errorForModel(error).text).toContain('The user denied this tool call: not today');
    expect(sentCalls()).toHaveLength(0);
  });

  it('sends the edited arguments after re-validating them, and records both', async () => {
    const { gate, sentCalls, audit } = await setup({
      approve: () => ({ action: 'allow', remember: 'once', arguments: { city: 'Bergen', days: 2 } }),
    });
    const outcome = await gate.call(call({ city: 'Oslo' }));
    expect(sentCalls()[0]!.params!.arguments).toEqual({ city: 'Bergen', days: 2 });
    // The result says what was proposed and what was sent, so the panel can show the edit.
    expect(outcome.proposedArguments).toEqual({ city: 'Oslo' });
    expect(outcome.arguments).toEqual({ city: 'Bergen', days: 2 });
    expect((audit as MemoryAuditSink).get(outcome.invocationId)!.pending).toMatchObject({
      proposedArguments: { city: 'Oslo' },
      arguments: { city: 'Bergen', days: 2 },
    });
  });

  it('refuses edited arguments that break the schema', async () => {
    const { gate, sentCalls } = await setup({
      approve: () => ({ action: 'allow', remember: 'once', arguments: { city: 7 } }),
    });
    await expect(gate.call(call({ city: 'Oslo' }))).rejects.toBeInstanceOf(InvalidArgumentsError);
    expect(sentCalls()).toHaveLength(0);
  });

  it('sends exactly the approved snapshot, whatever the caller or the dialog mutates afterwards', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { gate, sentCalls } = await setup({
      approve: async (request) => {
        (request.arguments as { city: string }).city = 'mutated by dialog';
        await held;
        return { action: 'allow', remember: 'once' };
      },
    });
    const args = { city: 'Oslo' };
    const pending = gate.call(call(args));
    args.city = 'mutated by caller';
    release();
    await pending;
    expect(sentCalls()[0]!.params!.arguments).toEqual({ city: 'Oslo' });
  });

  it('keeps concurrent approvals of the same tool apart', async () => {
    const waiting: { request: ApprovalRequest; resolve: (answer: ApprovalAnswer) => void }[] = [];
    const { gate, sentCalls } = await setup({
      approve: (request) => new Promise((resolve) => waiting.push({ request, resolve })),
    });
    const first = gate.call(call({ city: 'Oslo' }));
    const second = gate.call(call({ city: 'Rome' }));
    await vi.waitFor(() => expect(waiting).toHaveLength(2));
    expect(waiting[0]!.request.invocationId).not.toBe(waiting[1]!.request.invocationId);
    // Answer the second first, with an edit; the first plainly.
    const rome = waiting.find((w) => w.request.arguments.city === 'Rome')!;
    const oslo = waiting.find((w) => w.request.arguments.city === 'Oslo')!;
    rome.resolve({ action: 'allow', remember: 'once', arguments: { city: 'Roma' } });
    oslo.resolve({ action: 'allow', remember: 'once' });
    const [a, b] = await Promise.all([first, second]);
    expect(a.arguments).toEqual({ city: 'Oslo' });
    expect(b.arguments).toEqual({ city: 'Roma' });
    expect(
      sentCalls()
        .map((c) => (c.params!.arguments as { city: string }).city)
        .sort(),
    ).toEqual(['Oslo', 'Roma']);
  });

  it('remembers an approval for the session: the next call asks nobody', async () => {
    const { gate, approvals } = await setup({ approve: () => ({ action: 'allow', remember: 'session' }) });
    await gate.call(call({ city: 'Oslo' }));
    const second = await gate.call(call({ city: 'Rome' }));
    expect(approvals).toHaveLength(1);
    expect(second.decision).toMatchObject({
      verdict: 'allow',
      source: { kind: 'remembered', scope: 'session' },
    });
  });

  it('a read-only claim from an untrusted server still asks; from a trusted one it is allowed', async () => {
    const { gate, policy, approvals } = await setup();
    await gate.call(call({}, { toolName: 'lookup' }));
    expect(approvals).toHaveLength(1);
    expect(approvals[0]!.annotations).toEqual({ claims: { readOnlyHint: true }, trusted: false });
    await policy.setTrust('srv', 'trusted');
    const trusted = await gate.call(call({}, { toolName: 'lookup' }));
    expect(approvals).toHaveLength(1);
    expect(trusted.decision.verdict).toBe('allow');
  });

  it('refuses the call when the audit log cannot record it, unless told to warn', async () => {
    const broken: AuditSink = {
      pending: async () => {
        throw new Error('QuotaExceededError');
      },
      final: async () => undefined,
      refusal: async () => undefined,
      resent: async () => undefined,
    };
    const refusing = await setup({ audit: broken });
    const error = await refusing.gate.call(call({ city: 'Oslo' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuditUnavailableError);
    expect((error as Error).message).toContain('export');
    expect(refusing.sentCalls()).toHaveLength(0);

    const warning = await setup({ audit: broken, onAuditFailure: 'warn' });
    const outcome = await warning.gate.call(call({ city: 'Oslo' }));
    expect(warning.sentCalls()).toHaveLength(1);
    expect(outcome.warnings[0]).toContain('could not record');
  });

  it('reports every audit write that fails, also when the call was refused or failed', async () => {
    const failing = (write: keyof AuditSink): AuditSink => {
      const memory = new MemoryAuditSink();
      return {
        pending: (record) => memory.pending(record),
        final: (record) => memory.final(record),
        refusal: (record) => memory.refusal(record),
        resent: (record) => memory.resent(record),
        [write]: async () => {
          throw new Error('disk full');
        },
      };
    };
    const reported = (gate: Gate) => {
      const events: GateEvent[] = [];
      gate.onEvent((event) => {
        if (event.type === 'audit-failed') events.push(event);
      });
      return events;
    };

    // A refusal (here: invalid arguments) whose record cannot be written.
    const refused = await setup({ audit: failing('refusal') });
    const refusedReports = reported(refused.gate);
    await expect(refused.gate.call(call({ days: 2 }))).rejects.toBeInstanceOf(InvalidArgumentsError);
    expect(refusedReports).toEqual([
      {
        type: 'audit-failed',
        invocationId: expect.any(String),
        record: 'refusal',
        message: 'The audit log could not record why this call was refused: disk full',
      },
    ]);

    // A call that failed after it left (an unusable result), whose final record cannot be written.
    const failed = await setup({ audit: failing('final'), answer: () => ({ content: 'not a list' }) });
    const failedReports = reported(failed.gate);
    await expect(failed.gate.call(call({ city: 'Oslo' }))).rejects.toThrow(/content/);
    expect(failed.sentCalls()).toHaveLength(1);
    expect(failedReports).toMatchObject([{ record: 'final', message: expect.stringContaining('disk full') }]);

    // A call that succeeded: the lost final record is a warning on its result, and reported.
    const succeeded = await setup({ audit: failing('final') });
    const succeededReports = reported(succeeded.gate);
    const outcome = await succeeded.gate.call(call({ city: 'Oslo' }));
    expect(outcome.warnings).toEqual(["The audit log could not record this call's result: disk full"]);
    expect(succeededReports).toMatchObject([{ record: 'final', invocationId: outcome.invocationId }]);
  });

  it('reports an output that breaks its schema next to the result, and records invalid-output', async () => {
    const { gate, audit } = await setup({
      answer: () => ({ content: [], structuredContent: { temp: 'warm' } }),
    });
    const outcome = await gate.call(call({ city: 'Oslo' }));
    expect(outcome.result.structuredContent).toEqual({ temp: 'warm' });
    expect(outcome.outputValidation).toMatchObject({ status: 'invalid' });
    expect((audit as MemoryAuditSink).get(outcome.invocationId)!.final!.outcome).toBe('invalid-output');
    expect(resultForModel(outcome).text).toContain('does not match');
  });

  it('returns a tool execution error as a result, exempt from the output check', async () => {
    const { gate, audit } = await setup({
      answer: () => ({ isError: true, content: [{ type: 'text', text: 'no such city' }] }),
    });
    const outcome = await gate.call(call({ city: 'Atlantis' }));
    expect(outcome.result.isError).toBe(true);
    expect(outcome.outputValidation).toBeUndefined();
    expect((audit as MemoryAuditSink).get(outcome.invocationId)!.final!.outcome).toBe('tool-error');
    expect(resultForModel(outcome)).toMatchObject({ isError: true, text: 'no such city' });
  });

  it('a cancellation while awaiting approval sends nothing and is on record', async () => {
    const controller = new AbortController();
    let asked!: () => void;
    const approverAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const { gate, sentCalls, audit } = await setup({
      approve: () => {
        asked();
        return new Promise(() => undefined);
      },
    });
    const pending = gate.call(call({ city: 'Oslo' }, { signal: controller.signal }));
    // Cancelled while the person is looking at it, not before the gate got that far.
    await approverAsked;
    controller.abort('changed my mind');
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    expect(sentCalls()).toHaveLength(0);
    expect((audit as MemoryAuditSink).entries[0]!.refusal).toMatchObject({ outcome: 'cancelled' });
  });

  it('a call that times out is cancelled on the wire and recorded as timed-out', async () => {
    const { gate, audit, transport } = await setup({
      approve: () => ({ action: 'allow', remember: 'once' }),
      answer: () => undefined,
    });
    // The scripted server answers every call; make this one hang by dropping its reply.
    transport.onmessage = ((original) => (message: unknown) => {
      if ((message as { result?: { content?: unknown } }).result?.content) return;
      original?.(message);
    })(transport.onmessage);
    const error = await gate.call(call({ city: 'Oslo' }, { timeoutMs: 50 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    // The host's code gets a sentence naming the server and the tool, as the panel shows it.
    expect((error as Error).message).toContain(
      "Server 'srv' did not answer tools/call for tool 'weather' within 50 ms",
    );
    expect(transport.sentWith('notifications/cancelled')).toHaveLength(1);
    const entry = (audit as MemoryAuditSink).entries[0]!;
    expect(entry.pending).toBeDefined();
    expect(entry.final).toMatchObject({ outcome: 'timed-out' });
  });

  it('names the server and suggests tools when a tool is unknown', async () => {
    const { gate } = await setup();
    await expect(gate.call(call({}, { toolName: 'nope' }))).rejects.toThrow(
      /srv has no tool named "nope".*weather/,
    );
    await expect(gate.call(call({}, { serverId: 'other' }))).rejects.toThrow(
      /No server "other" is connected \(connected: srv\)/,
    );
  });
});
