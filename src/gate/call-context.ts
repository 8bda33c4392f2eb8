/**
 * One call as it goes through the gate: what the steps share (the gate's options, clock, events and
 * pin caches), what the call brought, and what the steps have settled so far. Every step takes it
 * explicitly; the pipeline creates one per call. Refusals and audit failures are written here, so
 * every step records and reports them the same way.
 */

import type { JsonObject } from '../protocol/index.js';
import type { ToolPins } from './pins.js';
import type { GateEvent, GateOptions } from './pipeline.js';
import { describeError } from './steps.js';
import type { CallTrace } from './trace-context.js';
import type { Decision, InvocationRequest, RecordedTrace, RefusalRecord } from './types.js';

/** What every call of one gate shares. */
export interface GateRuntime {
  options: GateOptions;
  now: () => number;
  emit: (event: GateEvent) => void;
  /** The pin cache of a server: a definition is hashed once per listing, not once per call. */
  pinsOf: (serverId: string) => ToolPins;
}

/** One call, and what the steps have settled so far (for the records a refusal writes). */
export interface CallContext {
  readonly gate: GateRuntime;
  readonly invocationId: string;
  readonly request: InvocationRequest;
  /** The proposal, copied at once: the caller may reuse or mutate its object while we wait. */
  readonly proposed: JsonObject;
  readonly requestedAt: number;
  /** Things the caller should be shown, e.g. an audit write that failed after the call. */
  readonly warnings: string[];
  trace?: CallTrace | undefined;
  definitionHash?: string;
  decision?: Decision;
  decidedAt?: number;
  /** Set once the call has left: from then on it ends with a final record, never a refusal. */
  sent: boolean;
}

/** Which audit record could not be written. */
export type AuditRecordKind = 'pending' | 'resent' | 'task' | 'final' | 'refusal';

/** A new call's context. */
export function startCall(gate: GateRuntime, request: InvocationRequest): CallContext {
  return {
    gate,
    invocationId: (gate.options.newInvocationId ?? (() => crypto.randomUUID()))(),
    request,
    proposed: structuredClone(request.arguments),
    requestedAt: gate.now(),
    warnings: [],
    sent: false,
  };
}

/**
 * Reports an audit write that failed: a warning for the call's result (when it gets one) and an
 * `audit-failed` event for every listener, whether the call goes on, was refused or failed.
 */
export function reportAuditFailure(call: CallContext, record: AuditRecordKind, error: unknown): string {
  const message = `The audit log could not record ${WHAT[record]}: ${describeError(error).message}`;
  call.warnings.push(message);
  call.gate.emit({ type: 'audit-failed', invocationId: call.invocationId, record, message });
  return message;
}

const WHAT: Record<AuditRecordKind, string> = {
  pending: 'this call',
  resent: 'a re-send of this call',
  task: 'the task this call runs as',
  final: "this call's result",
  refusal: 'why this call was refused',
};

/**
 * Records that the call was refused before it was sent, with everything settled so far. A failed
 * write is reported (the refusal itself stands: the caller is told by the error it gets).
 */
export async function refuse(
  call: CallContext,
  outcome: RefusalRecord['outcome'],
  reason: string,
  extra: Partial<RefusalRecord> = {},
): Promise<void> {
  try {
    await call.gate.options.audit.refusal({
      ...recordHead(call),
      outcome,
      reason,
      timestamps: { requested: call.requestedAt, ...(call.decidedAt ? { decided: call.decidedAt } : {}) },
      ...(call.definitionHash ? { definitionHash: call.definitionHash } : {}),
      ...(call.decision ? { decision: call.decision } : {}),
      ...extra,
    });
  } catch (error) {
    reportAuditFailure(call, 'refusal', error);
  }
}

/** What a call's opening record says, pending or refusal: which call, of what, by whom, proposing what. */
export function recordHead(call: CallContext) {
  const { serverId, toolName, caller } = call.request;
  return {
    invocationId: call.invocationId,
    serverId,
    toolName,
    caller,
    proposedArguments: call.proposed,
    ...(call.trace ? { trace: recordedTrace(call.trace) } : {}),
  };
}

/** What the audit log keeps of a call's trace: the ids that correlate its records with the trace. */
function recordedTrace(trace: CallTrace): RecordedTrace {
  return { traceId: trace.traceId, spanId: trace.spanId, sampled: trace.sampled };
}
