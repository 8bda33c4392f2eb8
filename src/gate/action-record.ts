/**
 * Actions that are not tool calls, on record through the gate's own AuditSink (no new record
 * kinds): an app shown, a sign-in, a skill approved or read. Each is an invocation whose "tool" is
 * the action (`apps/show`, `auth/sign-in`, `skills/read`, …), whose arguments say what it was about
 * and whose definition hash is what it is bound to. The one writer of such records: apps/, session/
 * and skills/ describe their actions and hand them here.
 */

import type { JsonObject } from '../protocol/index.js';
import type { AuditSink, Caller, Decision, FinalRecord } from './types.js';

/** One action, as its records say it. */
export interface ActionRecord {
  serverId: string;
  /** The action's name, recorded as the tool name (`skills/load`). */
  action: string;
  /** What the action is bound to: a manifest digest, an issuer, a policy's hash ('' for nothing). */
  boundTo: string;
  caller: Caller;
  /** What it was about: names, URIs and choices; never secrets or file contents. */
  details: JsonObject;
  decision: Decision;
  approvedBy?: string;
}

/** How an action ended. */
export type ActionEnd = Omit<FinalRecord, 'invocationId' | 'finishedAt' | 'durationMs'>;

/**
 * Records `record` as pending and resolves once that is durable (if it rejects, the action must not
 * happen: nothing unrecorded is read or approved). Returns the function that records its end.
 */
export async function beginAction(
  sink: AuditSink,
  record: ActionRecord,
  now: () => number = Date.now,
): Promise<(end: ActionEnd) => Promise<void>> {
  const invocationId = crypto.randomUUID();
  const started = now();
  await sink.pending({
    invocationId,
    serverId: record.serverId,
    toolName: record.action,
    definitionHash: record.boundTo,
    caller: record.caller,
    proposedArguments: record.details,
    arguments: record.details,
    decision: record.decision,
    ...(record.approvedBy ? { approvedBy: record.approvedBy } : {}),
    timestamps: { requested: started, decided: started, sent: started },
  });
  return (end) => {
    const finishedAt = now();
    return sink.final({ invocationId, finishedAt, durationMs: finishedAt - started, ...end });
  };
}

/** Records an action that is already over: its pending and final records, in that order. */
export async function recordAction(
  sink: AuditSink,
  record: ActionRecord,
  end: ActionEnd,
  now: () => number = Date.now,
): Promise<void> {
  const finish = await beginAction(sink, record, now);
  await finish(end);
}

/** Records an action refused before anything was done (one `denied` refusal record). */
export async function refuseAction(
  sink: AuditSink,
  record: ActionRecord,
  reason: string,
  now: () => number = Date.now,
): Promise<void> {
  const at = now();
  await sink.refusal({
    invocationId: crypto.randomUUID(),
    serverId: record.serverId,
    toolName: record.action,
    definitionHash: record.boundTo,
    caller: record.caller,
    proposedArguments: record.details,
    decision: record.decision,
    outcome: 'denied',
    reason,
    timestamps: { requested: at, decided: at },
  });
}
