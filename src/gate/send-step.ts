/**
 * Steps 5, 6 and 8 of the one flow: the pending record durable before anything leaves, the send
 * over the transport (every re-send checked against the approved definition and on record first),
 * and the final record in the same chain. Audit failures follow `onAuditFailure` before the call
 * leaves ('refuse', the default, or 'warn') and are reported after it, never swallowed.
 */

import type { CallToolResult, JsonObject, ResendReason } from '../protocol/index.js';
import type { Approval } from './approve-step.js';
import { type CallContext, recordHead, reportAuditFailure } from './call-context.js';
import type { Decided, ResolvedTool } from './check-steps.js';
import { AuditUnavailableError, DefinitionChangedError } from './errors.js';
import { describeError, outcomeOfError, outcomeOfResult } from './steps.js';
import { taskTrail } from './task-step.js';
import { traceMeta } from './trace-context.js';
import type { Decision, FinalRecord, ValidationReport } from './types.js';

/** Defaults the spec asks for: every call times out. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_TOTAL_MS = 10 * 60_000;

/** Step 5: the pending entry is durable before anything leaves (or, with 'warn', a warning is). */
export function recordPending(
  call: CallContext,
  tool: ResolvedTool,
  decided: Decided,
  approval: Approval,
): Promise<void> {
  return recordSending(call, {
    definitionHash: tool.pinned.definitionHash,
    arguments: approval.arguments,
    decision: decided.decision,
    decidedAt: decided.decidedAt,
    ...(approval.approvedBy ? { approvedBy: approval.approvedBy } : {}),
    ...(approval.approvedAt ? { approvedAt: approval.approvedAt } : {}),
  });
}

/**
 * The pending record of whatever is invoked (a tool call, a read, a prompt get): durable before it
 * leaves, or refused with AuditUnavailableError (with 'warn': a warning, and it leaves).
 */
export async function recordSending(
  call: CallContext,
  what: {
    definitionHash: string;
    arguments: JsonObject;
    decision: Decision;
    decidedAt: number;
    approvedBy?: string;
    approvedAt?: number;
  },
): Promise<void> {
  try {
    await call.gate.options.audit.pending({
      ...recordHead(call),
      definitionHash: what.definitionHash,
      arguments: what.arguments,
      decision: what.decision,
      ...(what.approvedBy ? { approvedBy: what.approvedBy } : {}),
      timestamps: {
        requested: call.requestedAt,
        decided: what.decidedAt,
        ...(what.approvedAt ? { approved: what.approvedAt } : {}),
        sent: call.gate.now(),
      },
    });
  } catch (error) {
    reportAuditFailure(call, 'pending', error);
    if (call.gate.options.onAuditFailure !== 'warn')
      throw new AuditUnavailableError(call.request.serverId, call.request.toolName, error);
  }
}

/** A re-send on record before it leaves (refused like a first send when the log cannot record it). */
export async function recordResend(
  call: CallContext,
  reason: ResendReason,
  attempt: number,
  definitionHash: string,
): Promise<void> {
  const { gate, invocationId, request } = call;
  try {
    await gate.options.audit.resent({ invocationId, reason, attempt, definitionHash, at: gate.now() });
  } catch (error) {
    reportAuditFailure(call, 'resent', error);
    if (gate.options.onAuditFailure !== 'warn')
      throw new AuditUnavailableError(request.serverId, request.toolName, error);
  }
}

/** The final record of something that failed once it had left; a failed write is reported beside it. */
export async function recordSendFailure(call: CallContext, sentAt: number, error: unknown): Promise<void> {
  const finishedAt = call.gate.now();
  try {
    await call.gate.options.audit.final({
      invocationId: call.invocationId,
      outcome: outcomeOfError(error),
      finishedAt,
      durationMs: finishedAt - sentAt,
      error: describeError(error),
    });
  } catch (auditError) {
    // The failure itself is what the caller gets; the lost record is reported beside it.
    reportAuditFailure(call, 'final', auditError);
  }
}

/**
 * What the send brought back, when it left (the final record's duration starts there) and when the
 * response arrived: the server's time, network included, without the person's approval wait.
 */
interface Sent {
  result: CallToolResult;
  sentAt: number;
  receivedAt: number;
}

/**
 * Step 6: over the transport, with timeout, progress and cancellation. A call that fails once it
 * has left gets its final record here (with the error), then rejects as it failed.
 */
export async function sendStep(call: CallContext, tool: ResolvedTool, approval: Approval): Promise<Sent> {
  const { request, invocationId, gate } = call;
  const { serverId, toolName } = request;
  gate.emit({ type: 'sent', invocationId, arguments: approval.arguments });
  call.sent = true;
  const sentAt = gate.now();
  let sends = 1;
  // Before the client sends the call again: the same definition as approved, and on record first.
  const beforeResend = async (reason: ResendReason) => {
    const current = (await tool.client.listCatalog()).entries.filter((e) => e.tool.name === toolName);
    const hashes = new Set(current.map((e) => tool.pins.pin(e.tool).definitionHash));
    if (hashes.size !== 1 || !hashes.has(tool.pinned.definitionHash))
      throw new DefinitionChangedError(serverId, toolName);
    sends++;
    await recordResend(call, reason, sends, tool.pinned.definitionHash);
  };
  // If the server answers with a task: its id and status changes go on record in this same entry.
  const trail = taskTrail(call, {
    invocationId,
    serverId,
    toolName,
    sentAt,
    definitionHash: tool.pinned.definitionHash,
  });
  try {
    const result = await tool.client.callTool(toolName, approval.arguments, {
      beforeResend,
      timeoutMs: request.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      maxTotalTimeoutMs: request.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_MS,
      signal: request.signal,
      meta: call.trace && traceMeta(call.trace),
      onprogress: (progress) => {
        gate.emit({ type: 'progress', invocationId, ...progress });
        request.onprogress?.(progress);
      },
      runAsTask: request.runAsTask ?? gate.options.runAsTask?.(serverId, toolName),
      task: trail.observer,
      taskPolling: gate.options.taskPolling,
    });
    await trail.end();
    return { result, sentAt, receivedAt: gate.now() };
  } catch (error) {
    await trail.end();
    await recordSendFailure(call, sentAt, error);
    throw error;
  }
}

/** Step 8: the final entry, in the same chain; a failed write is a warning on the result. */
export function recordFinal(
  call: CallContext,
  sent: Sent,
  outputValidation: ValidationReport | undefined,
): Promise<void> {
  return recordFinished(call, sent.sentAt, {
    outcome: outcomeOfResult(sent.result, outputValidation),
    result: sent.result,
    ...(outputValidation ? { outputValidation } : {}),
  });
}

/** The final record of whatever was invoked and came back; a failed write is a warning on the result. */
export async function recordFinished(
  call: CallContext,
  sentAt: number,
  ending: Omit<FinalRecord, 'invocationId' | 'finishedAt' | 'durationMs'>,
): Promise<void> {
  const finishedAt = call.gate.now();
  try {
    await call.gate.options.audit.final({
      invocationId: call.invocationId,
      finishedAt,
      durationMs: finishedAt - sentAt,
      ...ending,
    });
  } catch (error) {
    reportAuditFailure(call, 'final', error);
  }
}
