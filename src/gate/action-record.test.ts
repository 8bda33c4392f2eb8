/**
 * The one writer of action records (apps shown, sign-ins, skill actions), against the gate's
 * in-memory AuditSink: the same sink the gate records tool calls in.
 */
import { describe, expect, it } from 'vitest';
import { type ActionRecord, beginAction, recordAction, refuseAction } from './action-record.js';
import { MemoryAuditSink } from './memory-audit.js';
import type { AuditSink } from './types.js';

const action: ActionRecord = {
  serverId: 'files',
  action: 'skills/read',
  boundTo: 'sha256:manifest',
  caller: { kind: 'person' },
  details: { skill: 'skill://files/report', file: 'SKILL.md' },
  decision: { verdict: 'allow', source: { kind: 'default', reason: 'person-action' }, reason: 'asked' },
  approvedBy: 'the person',
};

describe('action records', () => {
  it('write a pending record that names the action, then its end in the same invocation', async () => {
    const sink = new MemoryAuditSink();
    let clock = 1_000;
    const finish = await beginAction(sink, action, () => clock);
    expect(sink.entries[0]?.final).toBeUndefined();
    clock = 1_250;
    await finish({ outcome: 'success', result: { content: [{ type: 'text', text: 'read 2 KB' }] } });
    const [entry] = sink.entries;
    expect(entry?.pending).toMatchObject({
      serverId: 'files',
      toolName: 'skills/read',
      definitionHash: 'sha256:manifest',
      caller: { kind: 'person' },
      arguments: action.details,
      proposedArguments: action.details,
      approvedBy: 'the person',
      timestamps: { requested: 1_000, decided: 1_000, sent: 1_000 },
    });
    expect(entry?.final).toMatchObject({
      invocationId: entry?.invocationId,
      outcome: 'success',
      finishedAt: 1_250,
      durationMs: 250,
    });
  });

  it('record an action that is over as one finished entry', async () => {
    const sink = new MemoryAuditSink();
    await recordAction(sink, action, { outcome: 'protocol-error', error: { kind: 'x', message: 'no' } });
    expect(sink.entries).toHaveLength(1);
    expect(sink.entries[0]?.final).toMatchObject({ outcome: 'protocol-error', error: { message: 'no' } });
  });

  it('record a refusal as one denied record, with its reason', async () => {
    const sink = new MemoryAuditSink();
    await refuseAction(sink, action, 'changed since it was approved', () => 7);
    expect(sink.entries[0]?.pending).toBeUndefined();
    expect(sink.entries[0]?.refusal).toMatchObject({
      toolName: 'skills/read',
      outcome: 'denied',
      reason: 'changed since it was approved',
      timestamps: { requested: 7, decided: 7 },
    });
  });

  it('reject when the pending record cannot be written, so the action does not happen', async () => {
    const full: AuditSink = {
      ...new MemoryAuditSink(),
      pending: async () => {
        throw new Error('quota exceeded');
      },
      final: async () => undefined,
      refusal: async () => undefined,
      resent: async () => undefined,
    };
    await expect(beginAction(full, action)).rejects.toThrow('quota exceeded');
  });
});
