/**
 * The gate's vocabulary: what a call is, who asked, what policy decided, what the person answered,
 * and the two seams other rooms implement (Approver: the widget; AuditSink: the audit log).
 */

import type {
  CallToolResult,
  JsonObject,
  Progress,
  ResendReason,
  Tool,
  ToolAnnotations,
} from '../protocol/index.js';
import type { TraceRequest } from './trace-context.js';

/** Who asked for a call. */
export interface Caller {
  /**
   * 'site': a web page using the person's tools through the extension's page bridge.
   * 'agent': the browser's own agent, calling a tool the page exposed to it through WebMCP.
   */
  kind: 'host' | 'person' | 'mcp-app' | 'site' | 'agent';
  /**
   * e.g. the host app's name, an MCP App's resource URI, a site's exact origin, the exact origin of
   * the page whose WebMCP tools the agent called.
   */
  label?: string;
  /**
   * For an MCP App: the server (id) whose UI resource it is. Resource URIs are chosen by servers, so
   * one URI names one app only together with its server; absent on other kinds.
   */
  server?: string;
}

/** What a caller hands the gate. */
export interface InvocationRequest {
  serverId: string;
  toolName: string;
  arguments: JsonObject;
  caller: Caller;
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
  /** Idle timeout, reset by progress. Default 60 s. */
  timeoutMs?: number;
  /** Hard limit regardless of progress. Default 10 min. */
  maxTotalTimeoutMs?: number;
  /** How long to wait for approval before the gate denies the call (ms; 0: no limit). Default: the gate's. */
  approvalTimeoutMs?: number;
  /** W3C trace context for the call's `_meta`: the host's own, or 'start' for a new trace. */
  trace?: TraceRequest;
  /**
   * 'form': the person pressed the Call button of the tool's own form. Honoured only with the
   * person as caller: that press approves the call, unless the tool is destructive or the policy
   * asks (then one compact confirmation), or the gate's `confirmOwnCalls` is 'always' (own-call.ts).
   */
  startedFrom?: 'form' | undefined;
  /**
   * One of several calls a model proposed at once (the host's `runMany`): the approver may show
   * every call of the batch in one dialog. Each call is still decided, approved and recorded alone.
   */
  batch?: CallBatch;
  /**
   * Ask the server to run the call as a task when the tool's `taskSupport` is `optional`
   * (2025-11-25); default: the gate's `runAsTask` setting. `required` tools always run as tasks.
   */
  runAsTask?: boolean | undefined;
}

/** Which batch a call belongs to: its id, how many calls it has, and this call's place in it. */
export interface CallBatch {
  id: string;
  size: number;
  /** 0-based. */
  index: number;
}

/**
 * What is kept of a call that runs as a task, to follow it again after a reload: ids and times only,
 * never arguments, results or credentials (those stay in the audit log and the connection).
 */
export interface TaskHandleRecord {
  invocationId: string;
  serverId: string;
  toolName: string;
  taskId: string;
  /** When the task was first seen (ms since epoch): its time to live counts from here. */
  since: number;
  /** When the call left: the final record's duration counts from here. */
  sentAt: number;
  /** The definition that was approved: a resumed task is checked against it like any re-send. */
  definitionHash: string;
  /** 2026-07-28 input keys answered already (keys only, never the answers): not asked again after a reload. */
  answeredKeys?: string[];
}

/** Where task handles live (IndexedDB beside the audit log, or memory). */
export interface TaskHandleStore {
  put(handle: TaskHandleRecord): Promise<void>;
  delete(invocationId: string): Promise<void>;
  list(): Promise<TaskHandleRecord[]>;
}

/** The trace a call carried, as the audit log records it (so exported records correlate). */
export interface RecordedTrace {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

/** Per-server trust, chosen by the person. Untrusted is the default. */
export type TrustLevel = 'untrusted' | 'trusted';

import type { SchemaIssue, ValidationReport, ValidatorEngine } from '../schema/index.js';

export type { SchemaIssue, ValidationReport, ValidatorEngine };

/** A tool's definition as pinned: its hash covers name, title, description, schemas and annotations. */
export interface PinnedTool {
  serverId: string;
  tool: Tool;
  definitionHash: string;
}

/** A definition that changed since a remembered approval was given, or since it was first seen. */
export interface DefinitionChange {
  previousHash: string;
  currentHash: string;
  /** What `previousHash` is: the definition a remembered approval was for (default), or the first one seen. */
  since?: 'approval' | 'first-seen';
  /** Human-readable differences (description, schemas, annotations), line by line. */
  changes: DefinitionDiffLine[];
  /**
   * How much the change weighs (definition-weight.ts): 'narrowing' only narrows or reorders (a
   * remembered approval still holds), 'wording' changes what the tool says (asked again), 'widening'
   * lets it accept or do more (asked again, flagged). Absent when the earlier definition is unknown.
   */
  weight?: 'narrowing' | 'wording' | 'widening';
  /** Each widening change in words, when `weight` is 'widening'. */
  widening?: string[];
}

export interface DefinitionDiffLine {
  field: string;
  before?: string;
  after?: string;
}

/** Something suspicious in a tool's text (tool poisoning): shown to the person, never hidden. */
export interface PoisoningFlag {
  field: string;
  kind: 'invisible-characters' | 'bidi-controls' | 'instruction-markup' | 'hidden-html';
  detail: string;
}

export type Verdict = 'allow' | 'ask' | 'deny';

/**
 * Why a decision was made when no rule and no remembered approval made it: a stable code for the
 * log and for code that reacts to it. The sentence a person reads is `Decision.reason`, never this.
 */
export type DecisionReasonCode =
  // The policy's defaults (policy.ts).
  | 'untrusted-server'
  | 'trusted-read-only'
  | 'trusted-read-only-asks'
  | 'trusted-may-change'
  | 'caller-must-be-approved'
  | 'definition-changed'
  | 'server-mismatch'
  // Actions recorded beside tool calls (action-record.ts): an app shown, a sign-in, a skill action.
  | 'app-shown'
  | 'sign-in'
  | 'person-action'
  | 'not-approved'
  // The person's own click on a tool form's Call button approved the call (own-call.ts).
  | 'person-started'
  // Reads and prompt gets (access-steps.ts): the person's own are allowed, everyone else's asked.
  | 'own-access'
  | 'access-must-be-approved'
  // A call that ran as a task, followed again after a reload: approved once, before it left (task-resume.ts).
  | 'resumed-task';

/** The code of a decision the validation floor made: the arguments could not be checked. */
export type ValidationReasonCode = 'arguments-unchecked';

/** Where a decision came from, for the audit log and the person. */
export type DecisionSource =
  | { kind: 'rule'; ruleId: string }
  | {
      kind: 'remembered';
      scope: 'session' | 'hour' | 'always';
      grantId: string;
      /** Absent: the one tool. */
      reach?: 'tool' | 'server' | 'server-read-only';
    }
  | { kind: 'default'; reason: DecisionReasonCode }
  | { kind: 'validation'; reason: ValidationReasonCode };

export interface Decision {
  verdict: Verdict;
  source: DecisionSource;
  /** One sentence a person can read. */
  reason: string;
}

/** How long an approval lasts: this call, this session (until the page closes), an hour, or always. */
export type RememberScope = 'once' | 'session' | 'hour' | 'always';

/** What the approver is shown. `validate` re-checks edited arguments against the same schema. */
export interface ApprovalRequest {
  invocationId: string;
  serverId: string;
  serverLabel: string;
  trust: TrustLevel;
  caller: Caller;
  pinned: PinnedTool;
  /** Annotations as the server declared them; `trusted` says whether they may be believed. */
  annotations: { claims: ToolAnnotations; trusted: boolean };
  arguments: JsonObject;
  validation: ValidationReport;
  decision: Decision;
  definitionChange?: DefinitionChange;
  /** What is wrong with how the server lists this tool (a name that breaks the rules, listed twice). */
  listingWarnings?: readonly string[];
  poisoning: PoisoningFlag[];
  validate: (args: JsonObject) => Promise<ValidationReport>;
  signal: AbortSignal;
  /** When the gate stops waiting and denies (epoch ms); absent when approvals wait without limit. */
  deadline?: number;
  /**
   * True when the arguments could not be validated (`validation.status === 'skipped'`): an allow
   * counts only with `acknowledgedUnchecked: true`, the person's explicit "I checked them myself".
   */
  requiresAcknowledgement: boolean;
  /**
   * Set when this is the person's own call from a tool's form that still needs one confirmation
   * (the tool is destructive, or the policy asks): show a compact confirmation, Deny first when
   * `destructive`. Absent: the full approval dialog.
   */
  ownCall?: { destructive: boolean };
  /** Set when the call is one of a batch the caller proposed at once (see InvocationRequest.batch). */
  batch?: CallBatch;
}

/** The approver's answer. Edited arguments replace the proposed ones after re-validation. */
export type ApprovalAnswer =
  | {
      action: 'allow';
      remember: RememberScope;
      /**
       * How far a remembered approval reaches (not with 'once'): absent or 'tool', this tool;
       * 'server', every tool of the server (tools that may destroy things only with
       * `includeDestructive`); 'server-read-only', the server's tools that say they only read.
       */
      reach?: 'tool' | 'server' | 'server-read-only';
      includeDestructive?: boolean;
      arguments?: JsonObject;
      decidedBy?: string;
      /** The person acknowledged that the arguments could not be checked against the schema. */
      acknowledgedUnchecked?: boolean;
    }
  | { action: 'deny'; reason?: string; decidedBy?: string };

/**
 * What is invoked besides a tool: a resource read (`resources/read` of `uri`) or a prompt get
 * (`prompts/get` of `name` with `arguments`). The audit log records these under the method as the
 * tool name and the target as the arguments (`{uri}`, `{name, arguments}`).
 */
export type AccessTarget =
  | { kind: 'resource'; uri: string }
  | { kind: 'prompt'; name: string; arguments?: Record<string, string> };

/** A read or a prompt get handed to the gate (`gate.read()`, `gate.getPrompt()`). */
export interface AccessRequest {
  serverId: string;
  caller: Caller;
  signal?: AbortSignal;
  /** Idle timeout, reset by progress. Default 60 s. */
  timeoutMs?: number;
  /** How long to wait for approval before the gate denies it (ms; 0: no limit). Default: the gate's. */
  approvalTimeoutMs?: number;
}

/**
 * What the approver is shown for a read or a prompt get: who asks, what is read (the URI) or which
 * prompt with which arguments, and how the server listed it (when it did), for a dialog to show.
 */
export interface AccessApprovalRequest {
  invocationId: string;
  serverId: string;
  serverLabel: string;
  trust: TrustLevel;
  caller: Caller;
  method: 'resources/read' | 'prompts/get';
  target: AccessTarget;
  /** The server's listing entry of the resource or prompt (display only: the server wrote it). */
  listed?: JsonObject;
  decision: Decision;
  signal: AbortSignal;
  deadline?: number;
}

/** Implemented by the widget (a person) or by host code. */
export interface Approver {
  approve(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /**
   * Asked for reads and prompt gets the policy does not allow by itself. Without it, those are
   * denied: a dialog that cannot show a read must not approve one. Edited arguments are ignored.
   */
  approveAccess?(request: AccessApprovalRequest): Promise<ApprovalAnswer>;
}

/** Final outcome of one invocation, as recorded. */
export type InvocationOutcome =
  | 'success'
  | 'tool-error'
  | 'protocol-error'
  | 'denied'
  | 'cancelled'
  | 'timed-out'
  | 'invalid-arguments'
  | 'invalid-output'
  | 'interrupted';

/** The first record, committed before the request leaves. */
export interface PendingRecord {
  invocationId: string;
  serverId: string;
  toolName: string;
  definitionHash: string;
  caller: Caller;
  proposedArguments: JsonObject;
  /** The arguments that are sent (after edits). */
  arguments: JsonObject;
  decision: Decision;
  approvedBy?: string;
  timestamps: { requested: number; decided: number; approved?: number; sent: number };
  trace?: RecordedTrace;
}

/**
 * The same call sent again by the client (a lost response stream, an expired session, a stale
 * schema, another round of requested input), under the definition that was approved. Durable before
 * the re-send leaves, like the pending record, so the log shows every send.
 */
export interface ResendRecord {
  invocationId: string;
  reason: ResendReason;
  /** Which send this is: 2 for the second, 3 for the third. */
  attempt: number;
  definitionHash: string;
  at: number;
}

/**
 * A call that runs as a task (the server answered it with a task handle): its id once, then every
 * change of status, with the server's status message. The entry reads "running as a task" until its
 * final record; the task id lets Toolgate resume following it after a reload.
 */
export interface TaskRecord {
  invocationId: string;
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  at: number;
}

/** The closing record: how it ended. */
export interface FinalRecord {
  invocationId: string;
  outcome: InvocationOutcome;
  finishedAt: number;
  durationMs: number;
  result?: CallToolResult;
  outputValidation?: ValidationReport;
  /** For reads and prompt gets: how many bytes came back and their SHA-256 (of the canonical JSON). */
  received?: { bytes: number; sha256: string };
  error?: { kind: string; message: string };
}

/** A call that never left (denied, invalid arguments): one record. */
export interface RefusalRecord {
  invocationId: string;
  serverId: string;
  toolName: string;
  definitionHash?: string;
  caller: Caller;
  proposedArguments: JsonObject;
  arguments?: JsonObject;
  decision?: Decision;
  outcome: 'denied' | 'invalid-arguments' | 'cancelled';
  reason: string;
  timestamps: { requested: number; decided?: number };
  validation?: ValidationReport;
  trace?: RecordedTrace;
}

/**
 * Implemented by the audit log. `pending` must be durable when it resolves; if it rejects, the call
 * does not leave (nothing unrecorded goes out).
 */
export interface AuditSink {
  pending(record: PendingRecord): Promise<void>;
  /** Like `pending`, for every later send of the same call: if it rejects, the re-send does not leave. */
  resent(record: ResendRecord): Promise<void>;
  final(record: FinalRecord): Promise<void>;
  refusal(record: RefusalRecord): Promise<void>;
  /** A task's id and each change of its status (sinks that keep no tasks may leave it out). */
  task?(record: TaskRecord): Promise<void>;
}
