/**
 * The one flow every tool call takes, read top to bottom in `call()`:
 *   resolve -> validate -> decide -> approve -> record pending -> send -> check -> record final -> return.
 * Nothing else in Toolgate calls a tool. Each step is a small function taking the call's context
 * (call-context.ts): check-steps.ts (1-3), approve-step.ts (4), send-step.ts (5, 6, 8) and
 * schema/output.ts (7); this file only wires them and records what a call refused before it left.
 *
 * Every step knows who is calling (request.caller): the policy decides per caller, and a remembered
 * approval is for that caller only (caller.ts). When the client must send the call again (a lost
 * stream, an expired session, a stale schema, another round of input), the definition is re-checked
 * against the approved one and the re-send is recorded first, like the first send.
 */

import type { McpClient, TaskPolling } from '../client/index.js';
import {
  type CallToolResult,
  type CompleteRequestParams,
  type CompleteResult,
  type GetPromptResult,
  type JsonObject,
  type ReadResourceResult,
  RequestCancelledError,
  redactSecrets,
} from '../protocol/index.js';
import { checkToolOutput, type SchemaValidator } from '../schema/index.js';
import type { AccessResult } from './access-steps.js';
import { approveStep } from './approve-step.js';
import {
  type AuditRecordKind,
  type CallContext,
  type GateRuntime,
  refuse,
  startCall,
} from './call-context.js';
import { decideStep, resolveStep, traceStep, validateStep } from './check-steps.js';
import { DeniedError, UnknownToolError } from './errors.js';
import type { ConfirmOwnCalls } from './own-call.js';
import { createToolPins, type ToolPins } from './pins.js';
import type { Policy } from './policy.js';
import { recordFinal, recordPending, sendStep } from './send-step.js';
import type {
  AccessRequest,
  AccessTarget,
  Approver,
  AuditSink,
  Caller,
  Decision,
  InvocationRequest,
  TaskHandleStore,
  TaskRecord,
  ValidationReport,
} from './types.js';

export { DEFAULT_CALL_TIMEOUT_MS } from './send-step.js';

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
  /**
   * A call the person starts with the Call button of a tool's form (`startedFrom: 'form'`) is
   * approved by that click ('when-needed', the default): only a destructive tool, or a policy that
   * asks, gets one compact confirmation. 'always': the full approval dialog for every call.
   */
  confirmOwnCalls?: ConfirmOwnCalls;
  now?: () => number;
  newInvocationId?: () => string;
  /** A read or prompt answer larger than this (bytes) is refused after it arrives. Default 16 MiB. */
  maxReadBytes?: number;
  /**
   * Whether a tool whose `taskSupport` is `optional` runs as a task (2025-11-25; a call's own
   * `runAsTask` wins). Default: no. `required` tools always do; 2026-07-28 servers decide themselves.
   */
  runAsTask?: (serverId: string, toolName: string) => boolean;
  /**
   * Where handles of calls running as tasks are kept, so that `resumeTasks` follows them again after
   * a reload. Without one, a task lives only as long as the page that started it.
   */
  taskHandles?: TaskHandleStore;
  /** How often tasks are polled (bounds around the server's `pollIntervalMs`). */
  taskPolling?: TaskPolling;
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
  /** The caller's arguments, present when the approver edited them before the call was sent. */
  proposedArguments?: JsonObject;
  /**
   * When the request left and its response came back (the gate's clock): the server's time,
   * network included, apart from any wait for the person's approval before it.
   */
  timings?: { sentAt: number; receivedAt: number };
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
  /**
   * A call running as a task: its status (each change), and when it is polled next (undefined once
   * it is not). `resumed` after a reload, when no caller of this page started it.
   */
  | {
      type: 'task';
      invocationId: string;
      serverId: string;
      toolName: string;
      taskId: string;
      status: TaskRecord['status'];
      statusMessage?: string;
      nextPollAt?: number;
      resumed?: boolean;
    }
  | { type: 'finished'; invocationId: string; result: GateResult }
  | { type: 'failed'; invocationId: string; error: Error }
  /** A read or a prompt get came back and passed its checks (its records are written). */
  | {
      type: 'accessed';
      invocationId: string;
      serverId: string;
      method: 'resources/read' | 'prompts/get';
      received: { bytes: number; sha256: string };
    }
  /**
   * A completion was asked (not gated, not in the audit log): the argument as it may be shown, its
   * value redacted when its name or its text looks secret.
   */
  | {
      type: 'completion';
      serverId: string;
      caller: Caller;
      ref: CompleteRequestParams['ref'];
      argument: { name: string; value: string };
    }
  /** An audit record could not be written (also a warning on the result, when the call has one). */
  | { type: 'audit-failed'; invocationId: string; record: AuditRecordKind; message: string };

export interface Gate {
  /** Runs one tool call through the gate. Rejects with a ToolgateError when the call did not complete. */
  call(request: InvocationRequest): Promise<GateResult>;
  /**
   * Reads a resource through the gate (`resources/read`): the person's own reads are allowed, every
   * other caller's are asked (Approver.approveAccess); recorded before it leaves and when it returns.
   */
  read(request: AccessRequest & { uri: string }): Promise<AccessResult<ReadResourceResult>>;
  /** Gets a prompt through the gate (`prompts/get`), asked and recorded as `read` is. */
  getPrompt(
    request: AccessRequest & { name: string; arguments?: Record<string, string> },
  ): Promise<AccessResult<GetPromptResult>>;
  /** Argument completion: not asked, not recorded (it reads suggestions, not data); see the `completion` event. */
  complete(request: {
    serverId: string;
    caller: Caller;
    params: CompleteRequestParams;
    signal?: AbortSignal;
  }): Promise<CompleteResult>;
  onEvent(listener: (event: GateEvent) => void): () => void;
  /**
   * Follows again every kept task of a server that is connected (now) — after a reload, say. Each
   * ends in its audit entry and a `finished` or `failed` event; an expired or unknown task ends as
   * such. Resolves with how many it took up.
   */
  resumeTasks(serverId: string): Promise<number>;
  /** Cancels a task taken up by `resumeTasks` (`tasks/cancel` reaches the server); calls of this page cancel by their signal. */
  cancelResumedTask(invocationId: string): void;
}

export function createGate(options: GateOptions): Gate {
  const listeners = new Set<(event: GateEvent) => void>();
  // One pin cache per server: a definition is hashed once per catalog listing, not once per call.
  const pinsByServer = new Map<string, ToolPins>();
  const gate: GateRuntime = {
    options,
    now: options.now ?? Date.now,
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A broken listener must not break a call (GateEvent says listeners must not throw).
        }
      }
    },
    pinsOf(serverId) {
      let pins = pinsByServer.get(serverId);
      if (!pins) {
        pins = createToolPins(serverId);
        pinsByServer.set(serverId, pins);
      }
      return pins;
    },
  };

  async function call(request: InvocationRequest): Promise<GateResult> {
    const context = startCall(gate, request);
    gate.emit({ type: 'requested', invocationId: context.invocationId, request });
    try {
      context.trace = await traceStep(context);
      const tool = await resolveStep(context); // 1 resolve
      const validation = await validateStep(context, tool); // 2 validate
      const decided = await decideStep(context, tool, validation); // 3 decide
      const approval = await approveStep(context, tool, validation, decided); // 4 approve
      const decision = approval.decision ?? decided.decision;
      await recordPending(context, tool, { ...decided, decision }, approval); // 5 record
      const sent = await sendStep(context, tool, approval); // 6 send
      const outputValidation = await checkToolOutput(tool.entry.tool, sent.result, options.validator); // 7 check
      await recordFinal(context, sent, outputValidation); // 8 record
      const result: GateResult = {
        invocationId: context.invocationId,
        serverId: request.serverId,
        toolName: request.toolName,
        result: sent.result,
        ...(outputValidation ? { outputValidation } : {}),
        arguments: approval.arguments,
        ...(approval.proposed ? { proposedArguments: approval.proposed } : {}),
        timings: { sentAt: sent.sentAt, receivedAt: sent.receivedAt },
        decision,
        warnings: context.warnings,
      };
      gate.emit({ type: 'finished', invocationId: context.invocationId, result });
      return result;
    } catch (error) {
      if (!context.sent) await refuseUnsent(context, error);
      gate.emit({
        type: 'failed',
        invocationId: context.invocationId,
        error: error instanceof Error ? error : new Error(String(error)),
      });
      throw error;
    }
  }

  // Reads and prompt gets load their steps on first use: the widget's first screen does not pay for them.
  const access = async <T extends ReadResourceResult | GetPromptResult>(
    request: AccessRequest,
    target: AccessTarget,
  ): Promise<AccessResult<T>> => {
    const { runAccess } = await import('./access-steps.js');
    return runAccess<T>(gate, request, target, options.maxReadBytes);
  };

  return {
    call,
    read: ({ uri, ...request }) => access<ReadResourceResult>(request, { kind: 'resource', uri }),
    getPrompt: ({ name, arguments: args, ...request }) =>
      access<GetPromptResult>(request, { kind: 'prompt', name, ...(args ? { arguments: args } : {}) }),
    async complete({ serverId, caller, params, signal }) {
      const client = options.servers.get(serverId);
      if (!client) throw new UnknownToolError(`No server "${serverId}" is connected: add it first.`);
      const shown = redactSecrets({ [params.argument.name]: params.argument.value }).value;
      gate.emit({
        type: 'completion',
        serverId,
        caller,
        ref: params.ref,
        argument: { name: params.argument.name, value: String(shown[params.argument.name]) },
      });
      return client.complete(params, signal ? { signal } : {});
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async resumeTasks(serverId) {
      // Loaded when a host resumes: a page that never ran a task does not pay for it.
      const { resumeTasks } = await import('./task-resume.js');
      return resumeTasks(gate, serverId);
    },
    cancelResumedTask(invocationId) {
      void import('./task-resume.js').then(({ cancelResumed }) => cancelResumed(gate, invocationId));
    },
  };
}

/**
 * Refusals that happen while waiting for the person, recorded here because no step returns them:
 * the caller cancelled, the person said no, or nobody answered in time. The steps record their own.
 */
async function refuseUnsent(call: CallContext, error: unknown): Promise<void> {
  if (error instanceof RequestCancelledError)
    await refuse(call, 'cancelled', 'the caller cancelled before the call was approved');
  // The person said no: that decision belongs in the log as much as any call that ran.
  if (error instanceof DeniedError && error.by === 'person')
    await refuse(
      call,
      'denied',
      error.reason ? `denied by the person: ${error.reason}` : 'denied by the person',
    );
  if (error instanceof DeniedError && error.by === 'timeout')
    await refuse(call, 'denied', `nobody answered the approval: ${error.reason}`);
}
