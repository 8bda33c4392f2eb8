/**
 * Skill activity in the audit log, through the gate's own AuditSink (gate/action-record.ts): every
 * approval, revocation, load and file read is an invocation whose "tool" is the action
 * (`skills/load`, `skills/read`, …), whose arguments name the skill and file, and whose definition
 * hash is the manifest digest the approval binds to. A pending record is durable before anything is
 * read; a verification failure closes it as `invalid-output`; a read refused before it was sent (not
 * approved, changed since approval, a file outside the manifest) is a `denied` refusal.
 */

import {
  type ActionEnd,
  type ActionRecord,
  type AuditSink,
  beginAction,
  type Caller,
  type Decision,
  type InvocationOutcome,
  refuseAction,
} from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import { SkillVerificationError } from './verify.js';

type SkillAction = 'skills/approve' | 'skills/revoke' | 'skills/load' | 'skills/read' | 'skills/inspect';

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
    /** Told when a closing record could not be written (the action's own outcome stands). */
    private readonly onAuditFailure?: (error: unknown) => void,
  ) {}

  /**
   * Records `activity` as pending (if that fails, `work` never runs: nothing unrecorded is read or
   * approved), runs `work`, and records how it ended with `work`'s one-line summary.
   */
  async run<T>(activity: SkillActivity, work: () => Promise<{ value: T; summary: string }>): Promise<T> {
    const end = await beginAction(this.sink, actionOf(activity), this.now);
    // The outcome is already decided; a failing final write must not turn it into another one.
    const finish = (how: ActionEnd) => end(how).catch((error: unknown) => this.onAuditFailure?.(error));
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
    await refuseAction(this.sink, actionOf(activity), reason, this.now);
  }
}

function actionOf(activity: SkillActivity): ActionRecord {
  return {
    serverId: activity.serverId,
    action: activity.action,
    boundTo: activity.manifest,
    caller: activity.caller,
    details: activity.details,
    decision: activity.decision,
    ...(activity.decidedBy ? { approvedBy: activity.decidedBy } : {}),
  };
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
