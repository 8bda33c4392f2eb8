/**
 * Steps 5, 6 and 8 of the one flow: the pending record durable before anything leaves, the send
 * over the transport (every re-send checked against the approved definition and on record first),
 * and the final record in the same chain. Audit failures follow `onAuditFailure` before the call
 * leaves ('refuse', the default, or 'warn') and are reported after it, never swallowed.
 */

import type { CallToolResult, ResendReason } from '../protocol/index.js';
import type { Approval } from './approve-step.js';
import { type CallContext, recordHead, reportAuditFailure } from './call-context.js';
import type { Decided, ResolvedTool } from './check-steps.js';
import { AuditUnavailableError, DefinitionChangedError } from './errors.js';
import { describeError, outcomeOfError, outcomeOfResult } from './steps.js';
import { traceMeta } from './trace-context.js';
import type { ValidationReport } from './types.js';

/** Defaults the spec asks for: every call times out. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_TOTAL_MS = 10 * 60_000;

/** Step 5: the pending entry is durable before anything leaves (or, with 'warn', a warning is). */
export async function recordPending(
  call: CallContext,
  tool: ResolvedTool,
  decided: Decided,
  approval: Approval,
): Promise<void> {
  try {
    await call.gate.options.audit.pending({
      ...recordHead(call),
      definitionHash: tool.pinned.definitionHash,
      arguments: approval.arguments,
      decision: decided.decision,
      ...(approval.approvedBy ? { approvedBy: approval.approvedBy } : {}),
      timestamps: {
        requested: call.requestedAt,
        decided: decided.decidedAt,
        ...(approval.approvedAt ? { approved: approval.approvedAt } : {}),
        sent: call.gate.now(),
      },
    });
  } catch (error) {
    reportAuditFailure(call, 'pending', error);
    if (call.gate.options.onAuditFailure !== 'warn')
      throw new AuditUnavailableError(call.request.serverId, call.request.toolName, error);
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
    try {
      await gate.options.audit.resent({
        invocationId,
        reason,
        attempt: sends,
        definitionHash: tool.pinned.definitionHash,
        at: gate.now(),
      });
    } catch (error) {
      reportAuditFailure(call, 'resent', error);
      if (gate.options.onAuditFailure !== 'warn') throw new AuditUnavailableError(serverId, toolName, error);
    }
  };
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
    });
    return { result, sentAt, receivedAt: gate.now() };
  } catch (error) {
    const finishedAt = gate.now();
    try {
      await gate.options.audit.final({
        invocationId,
        outcome: outcomeOfError(error),
        finishedAt,
        durationMs: finishedAt - sentAt,
        error: describeError(error),
      });
    } catch (auditError) {
      // The call's own failure is what the caller gets; the lost record is reported beside it.
      reportAuditFailure(call, 'final', auditError);
    }
    throw error;
  }
}

/** Step 8: the final entry, in the same chain; a failed write is a warning on the result. */
export async function recordFinal(
  call: CallContext,
  sent: Sent,
  outputValidation: ValidationReport | undefined,
): Promise<void> {
  const finishedAt = call.gate.now();
  try {
    await call.gate.options.audit.final({
      invocationId: call.invocationId,
      outcome: outcomeOfResult(sent.result, outputValidation),
      finishedAt,
      durationMs: finishedAt - sent.sentAt,
      result: sent.result,
      ...(outputValidation ? { outputValidation } : {}),
    });
  } catch (error) {
    reportAuditFailure(call, 'final', error);
  }
}
