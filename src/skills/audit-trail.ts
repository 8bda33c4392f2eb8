/**
 * Skill activity in the audit log, through the gate's own AuditSink (no new record kinds): every
 * approval, revocation, load and file read is an invocation whose "tool" is the action
 * (`skills/load`, `skills/read`, …), whose arguments name the skill and file, and whose definition
 * hash is the manifest digest the approval binds to. A pending record is durable before anything is
 * read; a verification failure closes it as `invalid-output`; a read refused before it was sent (not
 * approved, changed since approval, a file outside the manifest) is a `denied` refusal.
 */

import type { AuditSink, Caller, Decision, FinalRecord, InvocationOutcome } from '../gate/types.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import { SkillVerificationError } from './verify.js';

export type SkillAction =
  | 'skills/approve'
  | 'skills/revoke'
  | 'skills/load'
  | 'skills/read'
  | 'skills/inspect';

/** What one record is about. */
export interface SkillActivity {
  action: SkillAction;
  serverId: string;
  caller: Caller;
  /** `{ skill, file?, … }`: URIs and choices, never file contents. */
  details: JsonObject;
  /** The manifest digest the action is bound to (the current entry's). */
  manifest: string;
  decision: Decision;
  decidedBy?: string;
}

export class SkillAuditTrail {
  constructor(
    private readonly sink: AuditSink,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Records `activity` as pending (if that fails, `work` never runs: nothing unrecorded is read or
   * approved), runs `work`, and records how it ended with `work`'s one-line summary.
   */
  async run<T>(activity: SkillActivity, work: () => Promise<{ value: T; summary: string }>): Promise<T> {
    const invocationId = crypto.randomUUID();
    const started = this.now();
    await this.sink.pending({
      invocationId,
      serverId: activity.serverId,
      toolName: activity.action,
      definitionHash: activity.manifest,
      caller: activity.caller,
      proposedArguments: activity.details,
      arguments: activity.details,
      decision: activity.decision,
      ...(activity.decidedBy ? { approvedBy: activity.decidedBy } : {}),
      timestamps: { requested: started, decided: started, sent: started },
    });
    const finish = (record: Omit<FinalRecord, 'invocationId' | 'finishedAt' | 'durationMs'>) => {
      const finishedAt = this.now();
      // The outcome is already decided; a failing final write must not turn it into another one.
      return this.sink
        .final({ invocationId, finishedAt, durationMs: finishedAt - started, ...record })
        .catch(() => undefined);
    };
    try {
      const { value, summary } = await work();
      await finish({ outcome: 'success', result: { content: [{ type: 'text', text: summary }] } });
      return value;
    } catch (error) {
      await finish({ outcome: outcomeOf(error), error: describe(error) });
      throw error;
    }
  }

  /** Records an action refused before anything was sent. */
  async refuse(activity: SkillActivity, reason: string): Promise<void> {
    const at = this.now();
    await this.sink.refusal({
      invocationId: crypto.randomUUID(),
      serverId: activity.serverId,
      toolName: activity.action,
      definitionHash: activity.manifest,
      caller: activity.caller,
      proposedArguments: activity.details,
      decision: activity.decision,
      outcome: 'denied',
      reason,
      timestamps: { requested: at, decided: at },
    });
  }
}

function outcomeOf(error: unknown): InvocationOutcome {
  if (error instanceof SkillVerificationError) return 'invalid-output';
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  if (kind === 'cancelled') return 'cancelled';
  if (kind === 'timeout') return 'timed-out';
  return 'protocol-error';
}

function describe(error: unknown): { kind: string; message: string } {
  if (error instanceof Error) {
    const kind = (error as { kind?: unknown }).kind;
    return { kind: typeof kind === 'string' ? kind : error.name, message: error.message };
  }
  return { kind: 'error', message: String(error) };
}
