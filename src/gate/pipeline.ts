/**
 * The one flow every tool call takes, read top to bottom:
 *   resolve -> validate -> decide -> approve -> record pending -> send -> check -> record final -> return.
 * Nothing else in Toolgate calls a tool. Each step is a small function (steps.ts and the modules it
 * names); this file only wires them and says what is recorded when.
 *
 * Every step knows who is calling (request.caller): the policy decides per caller, and a remembered
 * approval is for that caller only (caller.ts). When the client must send the call again (a lost
 * stream, an expired session, a stale schema, another round of input), the definition is re-checked
 * against the approved one and the re-send is recorded first, like the first send.
 */

import type { McpClient } from '../client/client.js';
import { untilAborted } from '../protocol/abort.js';
import type { ResendReason } from '../protocol/engine.js';
import { RequestCancelledError } from '../protocol/errors.js';
import type { JsonObject } from '../protocol/jsonrpc.js';
import type { CallToolResult } from '../protocol/types.js';
import { checkToolOutput, type SchemaValidator } from '../schema/index.js';
import {
  AmbiguousToolError,
  AuditUnavailableError,
  DefinitionChangedError,
  DeniedError,
  UncheckedArgumentsError,
} from './errors.js';
import { createToolPins, type ToolPins } from './pins.js';
import { detectPoisoning } from './poisoning.js';
import type { Policy } from './policy.js';
import {
  assertNotDenied,
  assertValid,
  describeError,
  outcomeOfError,
  outcomeOfResult,
  resolveTool,
  settleApproval,
} from './steps.js';
import { type CallTrace, traceFor, traceMeta } from './trace-context.js';
import type {
  Approver,
  AuditSink,
  Decision,
  InvocationRequest,
  PendingRecord,
  RecordedTrace,
  RefusalRecord,
  ValidationReport,
} from './types.js';

/** Defaults the spec asks for: every call times out. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_TOTAL_MS = 10 * 60_000;
/** How long a call waits for a person before the gate denies it: a model's loop must not hang forever. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 10 * 60_000;

export interface GateOptions {
  /** Connected servers by id (the connection's identity, as in qualified tool names). */
  servers: ReadonlyMap<string, McpClient>;
  policy: Policy;
  approver: Approver;
  audit: AuditSink;
  validator: SchemaValidator;
  /** When the audit log cannot record: refuse the call (default) or send it with a warning. */
  onAuditFailure?: 'refuse' | 'warn';
  /** Display name of a server for the approval dialog. */
  serverLabel?: (serverId: string) => string;
  /**
   * Whether arguments that could not be checked against the schema (too large, a risky pattern, an
   * unknown dialect) may go to the approver for callers other than the person. Default: no, the gate
   * refuses them. The person's own calls are always asked, and need an explicit acknowledgement.
   */
  acceptUncheckedArguments?: (serverId: string) => boolean;
  /** How long a call waits for approval before it is denied (ms; default 10 minutes; 0: no limit). */
  approvalTimeoutMs?: number;
  now?: () => number;
  newInvocationId?: () => string;
}

/** What a caller gets back. Tool execution errors are results (`result.isError`), not exceptions. */
export interface GateResult {
  invocationId: string;
  serverId: string;
  toolName: string;
  result: CallToolResult;
  /** The outputSchema verdict on structuredContent; undefined when there is nothing to check. */
  outputValidation?: ValidationReport;
  /** The arguments that were sent (after any edit). */
  arguments: JsonObject;
  decision: Decision;
  /** Things the caller should show, e.g. an audit write that failed after the call. */
  warnings: string[];
}

/** Events for indicators and logs; listeners must not throw (errors are swallowed and reported). */
export type GateEvent =
  | { type: 'requested'; invocationId: string; request: InvocationRequest }
  | { type: 'awaiting-approval'; invocationId: string }
  | { type: 'sent'; invocationId: string; arguments: JsonObject }
  | { type: 'progress'; invocationId: string; progress: number; total?: number; message?: string }
  | { type: 'finished'; invocationId: string; result: GateResult }
  | { type: 'failed'; invocationId: string; error: Error };

export interface Gate {
  /** Runs one tool call through the gate. Rejects with a ToolgateError when the call did not complete. */
  call(request: InvocationRequest): Promise<GateResult>;
  onEvent(listener: (event: GateEvent) => void): () => void;
}

export function createGate(options: GateOptions): Gate {
  const listeners = new Set<(event: GateEvent) => void>();
  // One pin cache per server: a definition is hashed once per catalog listing, not once per call.
  const pinsByServer = new Map<string, ToolPins>();
  const pinsOf = (serverId: string): ToolPins => {
    let pins = pinsByServer.get(serverId);
    if (!pins) {
      pins = createToolPins(serverId);
      pinsByServer.set(serverId, pins);
    }
    return pins;
  };
  const now = options.now ?? Date.now;
  const newId = options.newInvocationId ?? (() => crypto.randomUUID());
  const emit = (event: GateEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not break a call.
      }
    }
  };

  async function call(request: InvocationRequest): Promise<GateResult> {
    const invocationId = newId();
    const { serverId, toolName, caller } = request;
    // The proposal is copied at once: the caller may reuse or mutate its object while we wait.
    const proposed = structuredClone(request.arguments);
    const requestedAt = now();
    emit({ type: 'requested', invocationId, request });
    let recordedDecision: Decision | undefined;
    let decidedAt: number | undefined;
    let definitionHash: string | undefined;
    let sent = false;
    let trace: CallTrace | undefined;

    const refuse = async (
      outcome: RefusalRecord['outcome'],
      reason: string,
      extra: Partial<RefusalRecord> = {},
    ) => {
      await options.audit
        .refusal({
          invocationId,
          serverId,
          toolName,
          caller,
          proposedArguments: proposed,
          outcome,
          reason,
          timestamps: { requested: requestedAt, ...(decidedAt ? { decided: decidedAt } : {}) },
          ...(definitionHash ? { definitionHash } : {}),
          ...(recordedDecision ? { decision: recordedDecision } : {}),
          ...(trace ? { trace: recordedTrace(trace) } : {}),
          ...extra,
        })
        .catch(() => undefined);
    };

    try {
      // The call's trace context: the host's (checked first: a malformed one is refused, on record),
      // or a new trace; it goes in the call's _meta and on every record of the call.
      if (request.trace) {
        try {
          trace = traceFor(request.trace, serverId, toolName);
        } catch (error) {
          await refuse('denied', describeError(error).message);
          throw error;
        }
      }

      // 1 resolve: the tool in the catalog, pinned (definition + hash).
      const { client, entry, sameName } = await resolveTool(options.servers, serverId, toolName).catch(
        async (error: unknown) => {
          // Not connected, not listed, excluded for a bad definition: refused, and on record like any refusal.
          await refuse('denied', describeError(error).message);
          throw error;
        },
      );
      const pins = pinsOf(serverId);
      const pinned = pins.pin(entry.tool);
      definitionHash = pinned.definitionHash;
      // Two different tools under one name: the person could be shown one while the other runs.
      const variants = new Set(sameName.map((e) => pins.pin(e.tool).definitionHash));
      if (variants.size > 1) {
        const ambiguous = new AmbiguousToolError(serverId, toolName, variants.size);
        await refuse('denied', ambiguous.message);
        throw ambiguous;
      }

      // 2 validate: invalid arguments stop here; nothing is sent.
      const validation = await options.validator.validate(entry.tool.inputSchema, proposed);
      if (validation.status === 'invalid') {
        await refuse('invalid-arguments', 'the arguments do not match the input schema', { validation });
        assertValid(serverId, toolName, validation);
      }

      // Arguments nobody could check go no further for a site, an app or a host's code, unless the host
      // accepted that for this server; the person's own calls are asked, with an acknowledgement.
      const unchecked = validation.status === 'skipped';
      if (unchecked && !acceptsUnchecked(caller, serverId)) {
        const refusal = new UncheckedArgumentsError(
          serverId,
          toolName,
          validation.reason,
          'Toolgate does not send unchecked arguments on behalf of an app or a web site. Call the tool from the panel to review them yourself, or let the host accept unchecked arguments for this server.',
        );
        await refuse('denied', refusal.message, { validation });
        throw refusal;
      }

      // 3 decide: policy over rules, remembered approvals, trust (annotations count only when trusted).
      const trust = await options.policy.trustOf(serverId);
      const decided = await options.policy.decide({
        caller,
        pinned,
        serverId,
        arguments: proposed,
        validation,
        trust,
        serverLabel: options.serverLabel?.(serverId) ?? serverId,
      });
      const decision = decided.decision;
      recordedDecision = decision;
      decidedAt = now();
      if (decision.verdict === 'deny') {
        await refuse('denied', decision.reason);
        assertNotDenied(serverId, toolName, decision);
      }

      // 4 approve: ask the person when the policy says so; edits are re-validated.
      let toSend = proposed;
      let approvedBy: string | undefined;
      let approvedAt: number | undefined;
      if (decision.verdict === 'ask') {
        // A change since a remembered approval is shown to its caller; one since the tool was first
        // seen is shown to every caller until the person has answered a dialog that showed it.
        const definitionChange =
          decided.definitionChange ??
          (await options.policy.changeSinceFirstSeen?.(pinned, entry.firstListed ?? entry.tool));
        emit({ type: 'awaiting-approval', invocationId });
        const waitLimit =
          request.approvalTimeoutMs ?? options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
        const approvalWait = new AbortController();
        const approvalSignal = request.signal
          ? AbortSignal.any([request.signal, approvalWait.signal])
          : approvalWait.signal;
        const deadline = waitLimit > 0 ? now() + waitLimit : undefined;
        const answer = await raceDeadline(
          raceAbort(
            options.approver.approve({
              invocationId,
              serverId,
              serverLabel:
                options.serverLabel?.(serverId) ??
                client.serverInfo?.title ??
                client.serverInfo?.name ??
                serverId,
              trust,
              caller,
              pinned,
              annotations: { claims: entry.tool.annotations ?? {}, trusted: trust === 'trusted' },
              arguments: structuredClone(proposed),
              validation,
              decision,
              ...(definitionChange ? { definitionChange } : {}),
              ...(entry.warnings.length > 0 ? { listingWarnings: [...entry.warnings] } : {}),
              poisoning: detectPoisoning(entry.tool),
              validate: (args) => options.validator.validate(entry.tool.inputSchema, args),
              signal: approvalSignal,
              ...(deadline !== undefined ? { deadline } : {}),
              requiresAcknowledgement: unchecked,
            }),
            request.signal,
            `${toolName} on ${serverId} (awaiting approval)`,
          ),
          waitLimit,
          () => {
            // Tell the approver (the dialog leaves the queue) before the call is denied.
            approvalWait.abort(new Error('the approval timed out'));
            return new DeniedError(
              serverId,
              toolName,
              'timeout',
              `no answer within ${describeWait(waitLimit)}`,
            );
          },
        );
        // Answered (allow or deny) with the change on screen: the person has seen this definition.
        // A failed write only means the change is shown once more: it must not fail the call.
        if (definitionChange)
          await options.policy
            .acknowledgeChange?.(serverId, toolName, pinned.definitionHash)
            .catch(() => undefined);
        const approved = settleApproval(serverId, toolName, proposed, answer);
        let checkedAfterEdit = !unchecked;
        if (approved.edited) {
          const recheck = await options.validator.validate(entry.tool.inputSchema, approved.arguments);
          if (recheck.status === 'invalid') {
            await refuse('invalid-arguments', 'the edited arguments do not match the input schema', {
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
          await refuse('denied', refusal.message, { arguments: approved.arguments });
          throw refusal;
        }
        toSend = approved.arguments;
        approvedBy = approved.decidedBy;
        approvedAt = now();
        if (approved.remember !== 'once')
          await options.policy.remember(caller, pinned, approved.remember, approvedBy);
      }

      // 5 record: the pending entry is durable before anything leaves.
      const warnings: string[] = [];
      const pending: PendingRecord = {
        invocationId,
        serverId,
        toolName,
        definitionHash: pinned.definitionHash,
        caller,
        proposedArguments: proposed,
        arguments: toSend,
        decision,
        ...(approvedBy ? { approvedBy } : {}),
        timestamps: {
          requested: requestedAt,
          decided: decidedAt,
          ...(approvedAt ? { approved: approvedAt } : {}),
          sent: now(),
        },
        ...(trace ? { trace: recordedTrace(trace) } : {}),
      };
      try {
        await options.audit.pending(pending);
      } catch (error) {
        if (options.onAuditFailure !== 'warn') throw new AuditUnavailableError(serverId, toolName, error);
        warnings.push(`The audit log could not record this call: ${describeError(error).message}`);
      }

      // 6 send: over the transport, with timeout, progress and cancellation.
      emit({ type: 'sent', invocationId, arguments: toSend });
      sent = true;
      const sentAt = now();
      let sends = 1;
      // Before the client sends the call again: the same definition as approved, and on record first.
      const beforeResend = async (reason: ResendReason) => {
        const current = (await client.listCatalog()).entries.filter((e) => e.tool.name === toolName);
        const hashes = new Set(current.map((e) => pins.pin(e.tool).definitionHash));
        if (hashes.size !== 1 || !hashes.has(pinned.definitionHash))
          throw new DefinitionChangedError(serverId, toolName);
        sends++;
        try {
          await options.audit.resent({
            invocationId,
            reason,
            attempt: sends,
            definitionHash: pinned.definitionHash,
            at: now(),
          });
        } catch (error) {
          if (options.onAuditFailure !== 'warn') throw new AuditUnavailableError(serverId, toolName, error);
          warnings.push(
            `The audit log could not record a re-send of this call: ${describeError(error).message}`,
          );
        }
      };
      let result: CallToolResult;
      try {
        result = await client.callTool(toolName, toSend, {
          beforeResend,
          timeoutMs: request.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
          maxTotalTimeoutMs: request.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_MS,
          ...(request.signal ? { signal: request.signal } : {}),
          ...(trace ? { meta: traceMeta(trace) } : {}),
          onprogress: (progress) => {
            emit({ type: 'progress', invocationId, ...progress });
            request.onprogress?.(progress);
          },
        });
      } catch (error) {
        const finishedAt = now();
        await options.audit
          .final({
            invocationId,
            outcome: outcomeOfError(error),
            finishedAt,
            durationMs: finishedAt - sentAt,
            error: describeError(error),
          })
          .catch(() => undefined);
        throw error;
      }

      // 7 check: structuredContent against outputSchema (tool errors are exempt); reported, not swallowed.
      const outputValidation = await checkToolOutput(entry.tool, result, options.validator);

      // 8 record: the final entry, in the same chain.
      const finishedAt = now();
      try {
        await options.audit.final({
          invocationId,
          outcome: outcomeOfResult(result, outputValidation),
          finishedAt,
          durationMs: finishedAt - sentAt,
          result,
          ...(outputValidation ? { outputValidation } : {}),
        });
      } catch (error) {
        warnings.push(`The audit log could not record this call's result: ${describeError(error).message}`);
      }

      const gateResult: GateResult = {
        invocationId,
        serverId,
        toolName,
        result,
        ...(outputValidation ? { outputValidation } : {}),
        arguments: toSend,
        decision,
        warnings,
      };
      emit({ type: 'finished', invocationId, result: gateResult });
      return gateResult;
    } catch (error) {
      // Cancelled while waiting for the person: the call never left, but the refusal is on record.
      if (!sent && error instanceof RequestCancelledError)
        await refuse('cancelled', 'the caller cancelled before the call was approved');
      // The person said no: that decision belongs in the log as much as any call that ran.
      if (!sent && error instanceof DeniedError && error.by === 'person')
        await refuse(
          'denied',
          error.reason ? `denied by the person: ${error.reason}` : 'denied by the person',
        );
      if (!sent && error instanceof DeniedError && error.by === 'timeout')
        await refuse('denied', `nobody answered the approval: ${error.reason}`);
      emit({
        type: 'failed',
        invocationId,
        error: error instanceof Error ? error : new Error(String(error)),
      });
      throw error;
    }
  }

  /** Whether unchecked arguments may reach the approver for this caller (see GateOptions). */
  function acceptsUnchecked(caller: InvocationRequest['caller'], serverId: string): boolean {
    return caller.kind === 'person' || options.acceptUncheckedArguments?.(serverId) === true;
  }

  return {
    call,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** What the audit log keeps of a call's trace: the ids that correlate its records with the trace. */
function recordedTrace(trace: CallTrace): RecordedTrace {
  return { traceId: trace.traceId, spanId: trace.spanId, sampled: trace.sampled };
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

/** Waits for `promise`, or rejects with a cancellation as soon as `signal` aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, label: string): Promise<T> {
  return untilAborted(promise, signal, (aborted) => new RequestCancelledError(label, aborted.reason));
}
