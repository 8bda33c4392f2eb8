/**
 * Step 4 of the one flow: ask the person when the policy says so. The approver sees the pinned
 * definition, what changed, the listing's warnings and poisoning flags; edits are re-validated;
 * unchecked arguments leave only with the approver's explicit acknowledgement; a deadline denies a
 * call nobody answers. What comes out is exactly what will be sent.
 */

import { type JsonObject, RequestCancelledError, untilAborted } from '../protocol/index.js';
import { type CallContext, refuse } from './call-context.js';
import type { Decided, ResolvedTool } from './check-steps.js';
import { DeniedError, UncheckedArgumentsError } from './errors.js';
import { APPROVED_BY_CLICK, ownCallConsent, personStartedDecision } from './own-call.js';
import { detectPoisoning } from './poisoning.js';
import { assertValid, settleApproval } from './steps.js';
import type { ApprovalAnswer, Decision, ValidationReport } from './types.js';

/** How long a call waits for a person before the gate denies it: a model's loop must not hang forever. */
const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;

/** What the approval settled: the arguments to send, and who approved them when. */
export interface Approval {
  arguments: JsonObject;
  /** The caller's proposal, kept when the approver edited it (the result shows what changed). */
  proposed?: JsonObject;
  approvedBy?: string;
  approvedAt?: number;
  /** The decision to record instead of the policy's: set when the person's own click approved it. */
  decision?: Decision;
}

/** Step 4: the arguments that will be sent, approved by a person when the policy asks. */
export async function approveStep(
  call: CallContext,
  tool: ResolvedTool,
  validation: ValidationReport,
  decided: Decided,
): Promise<Approval> {
  if (decided.decision.verdict !== 'ask') return { arguments: call.proposed };
  const { serverId, toolName, caller } = call.request;
  const { options } = call.gate;
  const { entry, pinned } = tool;
  // A change since a remembered approval is shown to its caller; one since the tool was first
  // seen is shown to every caller until the person has answered a dialog that showed it.
  const definitionChange =
    decided.definitionChange ??
    (await options.policy.changeSinceFirstSeen?.(pinned, entry.firstListed ?? entry.tool));
  const unchecked = validation.status === 'skipped';
  const poisoning = detectPoisoning(entry.tool);
  // One consent per intent: the person's own click on the form's Call button may be all it takes.
  const consent = ownCallConsent({
    request: call.request,
    decision: decided.decision,
    validation,
    entry,
    definitionChange,
    poisoning,
    confirmOwnCalls: options.confirmOwnCalls,
  });
  if (consent.kind === 'click') {
    const decision = personStartedDecision(toolName);
    // Every later record of the call (a refusal before it leaves) carries the decision that held.
    call.decision = decision;
    return {
      arguments: structuredClone(call.proposed),
      approvedBy: APPROVED_BY_CLICK,
      approvedAt: call.gate.now(),
      decision,
    };
  }
  call.gate.emit({ type: 'awaiting-approval', invocationId: call.invocationId });
  const answer = await waitForAnswer(call, (signal, deadline) =>
    options.approver.approve({
      invocationId: call.invocationId,
      serverId,
      serverLabel:
        options.serverLabel?.(serverId) ??
        tool.client.serverInfo?.title ??
        tool.client.serverInfo?.name ??
        serverId,
      trust: decided.trust,
      caller,
      pinned,
      annotations: { claims: entry.tool.annotations ?? {}, trusted: decided.trust === 'trusted' },
      arguments: structuredClone(call.proposed),
      validation,
      decision: decided.decision,
      ...(definitionChange ? { definitionChange } : {}),
      ...(entry.warnings.length > 0 ? { listingWarnings: [...entry.warnings] } : {}),
      poisoning,
      validate: (args) => options.validator.validate(entry.tool.inputSchema, args),
      signal,
      ...(deadline !== undefined ? { deadline } : {}),
      requiresAcknowledgement: unchecked,
      ...(consent.kind === 'confirm' ? { ownCall: { destructive: consent.destructive } } : {}),
      ...(call.request.batch ? { batch: { ...call.request.batch } } : {}),
    }),
  );
  // Answered (allow or deny) with the change on screen: the person has seen this definition.
  // A failed write only means the change is shown once more: it must not fail the call.
  if (definitionChange)
    await options.policy
      .acknowledgeChange?.(serverId, toolName, pinned.definitionHash)
      .catch(() => undefined);
  const approved = settleApproval(serverId, toolName, call.proposed, answer);
  let checkedAfterEdit = !unchecked;
  if (approved.edited) {
    const recheck = await options.validator.validate(entry.tool.inputSchema, approved.arguments);
    if (recheck.status === 'invalid') {
      await refuse(call, 'invalid-arguments', 'the edited arguments do not match the input schema', {
        arguments: approved.arguments,
        validation: recheck,
      });
      assertValid(serverId, toolName, recheck);
    }
    checkedAfterEdit = recheck.status === 'valid';
  }
  // Unchecked arguments leave only with the approver's explicit "I checked them myself".
  if (!checkedAfterEdit && !(answer.action === 'allow' && answer.acknowledgedUnchecked === true)) {
    const refusal = new UncheckedArgumentsError(
      serverId,
      toolName,
      validation.status === 'skipped' ? validation.reason : 'the edited arguments could not be checked',
      'It was approved without acknowledging that; nothing was sent. Approve again and confirm that you checked the arguments yourself.',
    );
    await refuse(call, 'denied', refusal.message, { arguments: approved.arguments });
    throw refusal;
  }
  const approval: Approval = {
    arguments: approved.arguments,
    ...(approved.edited ? { proposed: call.proposed } : {}),
    ...(approved.decidedBy ? { approvedBy: approved.decidedBy } : {}),
    approvedAt: call.gate.now(),
  };
  if (approved.remember !== 'once')
    await options.policy.remember(
      caller,
      pinned,
      approved.remember,
      approved.decidedBy,
      answer.action === 'allow' && answer.reach
        ? { reach: answer.reach, ...(answer.includeDestructive ? { includeDestructive: true } : {}) }
        : undefined,
    );
  return approval;
}

/**
 * The approver's answer, or a cancellation when the caller aborts, or a denial at the deadline
 * (`approvalTimeoutMs`, per call or per gate; 0 waits for ever). The approver's signal aborts in
 * both cases, so its dialog leaves the queue.
 */
export function waitForAnswer(
  call: CallContext,
  ask: (signal: AbortSignal, deadline: number | undefined) => Promise<ApprovalAnswer>,
): Promise<ApprovalAnswer> {
  const { serverId, toolName, signal } = call.request;
  const { options, now } = call.gate;
  const waitLimit =
    call.request.approvalTimeoutMs ?? options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const approvalWait = new AbortController();
  const approvalSignal = signal ? AbortSignal.any([signal, approvalWait.signal]) : approvalWait.signal;
  const deadline = waitLimit > 0 ? now() + waitLimit : undefined;
  const answered = untilAborted(
    ask(approvalSignal, deadline),
    signal,
    (aborted) => new RequestCancelledError(`${toolName} on ${serverId} (awaiting approval)`, aborted.reason),
  );
  return raceDeadline(answered, waitLimit, () => {
    // Tell the approver (the dialog leaves the queue) before the call is denied.
    approvalWait.abort(new Error('the approval timed out'));
    return new DeniedError(serverId, toolName, 'timeout', `no answer within ${describeWait(waitLimit)}`);
  });
}

/** Waits for `promise` at most `limitMs` (0: no limit), then rejects with what `expired` returns. */
function raceDeadline<T>(promise: Promise<T>, limitMs: number, expired: () => Error): Promise<T> {
  if (limitMs <= 0) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(expired()), limitMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** "10 minutes", "90 seconds": a wait as a person reads it. */
function describeWait(ms: number): string {
  const minutes = ms / 60_000;
  return Number.isInteger(minutes)
    ? `${minutes} minute${minutes === 1 ? '' : 's'}`
    : `${Math.round(ms / 1000)} seconds`;
}
