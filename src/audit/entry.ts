/**
 * One invocation as the log shows it: a summary folded from its chain events (pending, final or
 * refusal, interrupted). The events are the evidence; the entry is the index a person searches.
 */

import type {
  Caller,
  Decision,
  FinalRecord,
  InvocationOutcome,
  PendingRecord,
  RecordedTrace,
  RefusalRecord,
  ResendRecord,
  TaskRecord,
  ValidationReport,
} from '../gate/index.js';
import type { CallToolResult, JsonObject } from '../protocol/index.js';
import type { ChainEvent } from './chain.js';

/** 'pending' while the call is out; every other value is final. */
export type EntryOutcome = InvocationOutcome | 'pending';

/** Entries per outcome, kept up to date by every append and pruning. */
export type OutcomeCounts = Partial<Record<EntryOutcome, number>>;

export interface AuditEntry {
  invocationId: string;
  serverId: string;
  toolName: string;
  definitionHash?: string;
  caller: Caller;
  /** When the call was requested (ms since epoch): the log's time order. */
  startedAt: number;
  outcome: EntryOutcome;
  decision?: Decision;
  approvedBy?: string;
  /** The W3C trace the call carried (its ids are on the exported records too). */
  trace?: RecordedTrace;
  /**
   * The first characters of the arguments' JSON (as sent, or as proposed when the call never left;
   * redacted), for lists and search. The full arguments, and the proposal when the person edited
   * it, are in the chain events (eventsOf). Keeping entries small keeps appends fast.
   */
  argumentsPreview: string;
  edited: boolean;
  /** How many times the call was sent (absent before it left; more than 1 when the client re-sent it). */
  sends?: number;
  timestamps: { requested: number; decided?: number; approved?: number; sent?: number; finished?: number };
  durationMs?: number;
  /** A line of the result for lists; the full (possibly truncated) result is in the final event. */
  resultSummary?: string;
  isError?: boolean;
  outputValidation?: ValidationReport['status'];
  error?: { kind: string; message: string };
  /** Why it was refused, interrupted or denied. */
  reason?: string;
  /** Paths whose values were redacted before storage. */
  redactedPaths: string[];
  /**
   * The task the call runs as, with its last status: while the outcome is 'pending' the entry reads
   * "running as a task". Each status change is a chain event of its own.
   */
  task?: { id: string; status: TaskRecord['status']; statusMessage?: string };
  /**
   * Set only while pending: the log session that sent it (for "interrupted" after a reload). A call
   * running as a task has none: it outlives its page, and is resumed rather than interrupted.
   */
  pendingSession?: string;
  /** The chain events of this invocation, in order. */
  seqs: number[];
  /** seqs[0]: retention finds the oldest evidence a kept entry needs. */
  firstSeq: number;
}

/**
 * The body a pending event stores: the record (redacted) plus the sending log session.
 * `proposedArguments` is left out when it equals `arguments` (the usual case): half the bytes.
 */
export interface PendingBody extends Omit<PendingRecord, 'proposedArguments'> {
  proposedArguments?: JsonObject;
  sessionId: string;
  redactedPaths: string[];
}

export interface RefusalBody extends RefusalRecord {
  redactedPaths: string[];
}

export interface FinalBody extends Omit<FinalRecord, 'result'> {
  /** The result as stored: possibly truncated (see truncation.ts). */
  result?: CallToolResult | JsonObject;
  redactedPaths: string[];
}

export interface InterruptedBody {
  invocationId: string;
  reason: string;
  detectedAt: number;
}

/** Folds one event into the entry it belongs to (undefined for the first event of an invocation). */
export function applyEvent(entry: AuditEntry | undefined, event: ChainEvent): AuditEntry {
  const body = event.body as unknown;
  switch (event.kind) {
    case 'pending': {
      const pending = body as PendingBody;
      return {
        invocationId: pending.invocationId,
        serverId: pending.serverId,
        toolName: pending.toolName,
        definitionHash: pending.definitionHash,
        caller: pending.caller,
        startedAt: pending.timestamps.requested,
        outcome: entry && entry.outcome !== 'pending' ? entry.outcome : 'pending',
        decision: pending.decision,
        ...(pending.approvedBy ? { approvedBy: pending.approvedBy } : {}),
        ...(pending.trace ? { trace: pending.trace } : {}),
        argumentsPreview: previewOf(pending.arguments),
        edited: pending.proposedArguments !== undefined,
        sends: (entry?.sends ?? 0) + 1,
        timestamps: { ...pending.timestamps },
        redactedPaths: pending.redactedPaths ?? [],
        pendingSession: pending.sessionId,
        seqs: [...(entry?.seqs ?? []), event.seq],
        firstSeq: entry?.firstSeq ?? event.seq,
      };
    }
    case 'refusal': {
      const refusal = body as RefusalBody;
      return {
        invocationId: refusal.invocationId,
        serverId: refusal.serverId,
        toolName: refusal.toolName,
        ...(refusal.definitionHash ? { definitionHash: refusal.definitionHash } : {}),
        caller: refusal.caller,
        startedAt: refusal.timestamps.requested,
        outcome: refusal.outcome,
        ...(refusal.decision ? { decision: refusal.decision } : {}),
        ...(refusal.trace ? { trace: refusal.trace } : {}),
        argumentsPreview: previewOf(refusal.arguments ?? refusal.proposedArguments),
        edited: refusal.arguments !== undefined && !sameJson(refusal.arguments, refusal.proposedArguments),
        timestamps: { ...refusal.timestamps },
        reason: refusal.reason,
        redactedPaths: refusal.redactedPaths ?? [],
        seqs: [...(entry?.seqs ?? []), event.seq],
        firstSeq: entry?.firstSeq ?? event.seq,
      };
    }
    case 'resent': {
      const resent = body as unknown as ResendRecord;
      const base = entry ?? orphan(resent.invocationId, event);
      return {
        ...base,
        sends: Math.max(base.sends ?? 1, resent.attempt),
        seqs: [...base.seqs, event.seq],
        firstSeq: base.seqs.length > 0 ? base.firstSeq : event.seq,
      };
    }
    case 'task': {
      const task = body as unknown as TaskRecord;
      const base = entry ?? orphan(task.invocationId, event);
      const { pendingSession: _outlives, ...rest } = base;
      return {
        ...rest,
        task: {
          id: task.taskId,
          status: task.status,
          ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
        },
        seqs: [...base.seqs, event.seq],
        firstSeq: base.seqs.length > 0 ? base.firstSeq : event.seq,
      };
    }
    case 'final': {
      const final = body as FinalBody;
      const base = entry ?? orphan(final.invocationId, event);
      const { pendingSession: _sent, ...rest } = base;
      const result = final.result as CallToolResult | undefined;
      return {
        ...rest,
        outcome: final.outcome,
        timestamps: { ...base.timestamps, finished: final.finishedAt },
        durationMs: final.durationMs,
        ...(result ? { resultSummary: summarizeResult(result), isError: result.isError === true } : {}),
        ...(final.outputValidation ? { outputValidation: final.outputValidation.status } : {}),
        ...(final.error ? { error: final.error } : {}),
        redactedPaths: [
          ...base.redactedPaths,
          ...(final.redactedPaths ?? []).map((path) => `result.${path}`),
        ],
        seqs: [...base.seqs, event.seq],
        firstSeq: base.seqs.length > 0 ? base.firstSeq : event.seq,
      };
    }
    case 'interrupted': {
      const interrupted = body as unknown as InterruptedBody;
      const base = entry ?? orphan(interrupted.invocationId, event);
      const { pendingSession: _sent, ...rest } = base;
      return {
        ...rest,
        outcome: 'interrupted',
        reason: interrupted.reason,
        timestamps: { ...base.timestamps, finished: interrupted.detectedAt },
        seqs: [...base.seqs, event.seq],
        firstSeq: base.seqs.length > 0 ? base.firstSeq : event.seq,
      };
    }
  }
}

/** Folds a run of events (an import, or a rebuild) into entries, newest first. */
export function entriesOf(events: Iterable<ChainEvent>): AuditEntry[] {
  const byId = new Map<string, AuditEntry>();
  for (const event of events) byId.set(event.invocationId, applyEvent(byId.get(event.invocationId), event));
  return [...byId.values()].sort(newestFirst);
}

function newestFirst(a: AuditEntry, b: AuditEntry): number {
  return (
    b.startedAt - a.startedAt ||
    (a.invocationId < b.invocationId ? 1 : a.invocationId > b.invocationId ? -1 : 0)
  );
}

/** A final or interrupted event whose pending event was pruned away: keep what is known. */
function orphan(invocationId: string, event: ChainEvent): AuditEntry {
  return {
    invocationId,
    serverId: '(pruned)',
    toolName: '(pruned)',
    caller: { kind: 'host' },
    startedAt: event.at,
    outcome: 'pending',
    argumentsPreview: '',
    edited: false,
    timestamps: { requested: event.at },
    redactedPaths: [],
    seqs: [],
    firstSeq: event.seq,
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** How much of the arguments' JSON an entry keeps for lists and free-text search. */
const ARGUMENTS_PREVIEW_CHARS = 512;

function previewOf(args: JsonObject): string {
  let text: string;
  try {
    text = JSON.stringify(args);
  } catch {
    // Arguments JSON cannot show have no preview; the full arguments are in the events.
    return '';
  }
  return text.length > ARGUMENTS_PREVIEW_CHARS ? `${text.slice(0, ARGUMENTS_PREVIEW_CHARS - 1)}…` : text;
}

/** The first text block, or a count of the content, in at most 200 characters. */
export function summarizeResult(result: CallToolResult | JsonObject): string {
  if ('truncated' in result && result.truncated === true)
    return `(large result: ${String(result.originalBytes)} bytes, stored truncated)`;
  const content = Array.isArray(result.content) ? (result.content as CallToolResult['content']) : [];
  const text = content.find((block) => block.type === 'text');
  if (text && text.type === 'text') return text.text.length > 200 ? `${text.text.slice(0, 199)}…` : text.text;
  if (content.length > 0) return content.map((block) => block.type).join(', ');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent).slice(0, 200);
  // A read (resources/read) or a prompt get (prompts/get): what came back, by kind, not its text.
  if (Array.isArray(result.contents))
    return `${result.contents.length} item${result.contents.length === 1 ? '' : 's'}: ${result.contents
      .map((item) =>
        isObject(item) && typeof item.mimeType === 'string'
          ? item.mimeType
          : isObject(item) && 'blob' in item
            ? 'binary'
            : 'text',
      )
      .join(', ')}`.slice(0, 200);
  if (Array.isArray(result.messages))
    return `${result.messages.length} message${result.messages.length === 1 ? '' : 's'}`;
  return '(empty result)';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
