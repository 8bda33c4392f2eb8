/**
 * What servers say about tasks, in both eras, read from untrusted JSON into one shape:
 * - 2025-11-25 (core): `CreateTaskResult` is `{ task: Task }`; `Task` has `ttl` and `pollInterval`;
 *   `tasks/get` and `notifications/tasks/status` carry a bare `Task`.
 * - 2026-07-28 (extension `io.modelcontextprotocol/tasks`): `CreateTaskResult` is the task itself
 *   with `resultType: "task"`; `ttlMs`, `pollIntervalMs`; `tasks/get` inlines `result`, `error` or
 *   `inputRequests` by status.
 * The parsers never throw: they return the task or the reason it is unusable.
 */

import { ToolgateError } from './errors.js';
import { describeJsonType, isJsonObject, type JsonObject } from './jsonrpc.js';

/**
 * A task ended without a result of its own: its time to live ran out while it was unfinished, the
 * server no longer knows it (expired and purged, or never its own), or it was cancelled. `kind` is
 * 'task-expired', 'task-unknown' or 'task-cancelled' in the audit log.
 */
export class TaskEndedError extends ToolgateError {
  readonly kind: 'task-expired' | 'task-unknown' | 'task-cancelled';
  constructor(
    readonly reason: 'expired' | 'unknown' | 'cancelled',
    readonly taskId: string,
    message: string,
  ) {
    super(message);
    this.kind = `task-${reason}`;
    this.name = 'TaskEndedError';
  }
}

export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One observation of a task, whichever era reported it. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601, as the server wrote it (undefined when it sent none or an unreadable one). */
  createdAt?: string;
  /** Time to live from creation in ms; null for unlimited; undefined when the server said nothing. */
  ttlMs?: number | null;
  /** The server's suggested polling interval in ms. */
  pollIntervalMs?: number;
  /** Modern `completed`: the final result of the request. */
  result?: JsonObject;
  /** Modern `failed`: the JSON-RPC error. */
  error?: JsonObject;
  /** Modern `input_required`: the outstanding server-to-client requests, by key. */
  inputRequests?: JsonObject;
}

export type TaskParse = { task: TaskSnapshot } | { problem: string };

/** The longest task id Toolgate keeps (it is stored and shown; servers use UUIDs). */
export const MAX_TASK_ID_LENGTH = 256;
const MAX_STATUS_MESSAGE_LENGTH = 2_000;

export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A bare `Task` of either era (`era` picks the field names: ttl/pollInterval or ttlMs/pollIntervalMs). */
export function parseTask(value: unknown, era: 'legacy' | 'modern'): TaskParse {
  if (!isJsonObject(value)) return { problem: `the task is ${describeJsonType(value)}, not an object` };
  const { taskId, status } = value;
  if (typeof taskId !== 'string' || taskId === '' || taskId.length > MAX_TASK_ID_LENGTH)
    return { problem: '"taskId" must be a non-empty string of at most 256 characters' };
  if (typeof status !== 'string' || !(TASK_STATUSES as readonly string[]).includes(status))
    return { problem: `"status" must be one of ${TASK_STATUSES.join(', ')}` };
  const task: TaskSnapshot = { taskId, status: status as TaskStatus };
  if (typeof value.statusMessage === 'string')
    task.statusMessage = value.statusMessage.slice(0, MAX_STATUS_MESSAGE_LENGTH);
  if (typeof value.createdAt === 'string' && Number.isFinite(Date.parse(value.createdAt)))
    task.createdAt = value.createdAt;
  const ttl = era === 'modern' ? value.ttlMs : value.ttl;
  if (ttl === null) task.ttlMs = null;
  else if (isDuration(ttl)) task.ttlMs = ttl;
  const poll = era === 'modern' ? value.pollIntervalMs : value.pollInterval;
  if (isDuration(poll)) task.pollIntervalMs = poll;
  if (era === 'modern') {
    if (task.status === 'completed') {
      if (!isJsonObject(value.result)) return { problem: 'a completed task must carry its "result" object' };
      task.result = value.result;
    }
    if (task.status === 'failed') {
      if (!isJsonObject(value.error)) return { problem: 'a failed task must carry its "error" object' };
      task.error = value.error;
    }
    if (task.status === 'input_required') {
      if (!isJsonObject(value.inputRequests))
        return { problem: 'an input_required task must carry its "inputRequests" object' };
      task.inputRequests = value.inputRequests;
    }
  }
  return { task };
}

/**
 * The answer to a task-augmented `tools/call`, when it is a task handle: legacy `{ task }`, modern
 * `resultType: "task"`. Undefined when the result is an ordinary result.
 */
export function parseCreateTaskResult(result: JsonObject, era: 'legacy' | 'modern'): TaskParse | undefined {
  if (era === 'modern') return result.resultType === 'task' ? parseTask(result, 'modern') : undefined;
  // A legacy CallToolResult has `content`; a CreateTaskResult has `task` (and no content).
  if (!('task' in result) || Array.isArray(result.content)) return undefined;
  return parseTask(result.task, 'legacy');
}

/** The error a failed task carries, as code and message (defaults when the server sent odd ones). */
export function taskErrorOf(error: JsonObject | undefined): {
  code: number;
  message: string;
  data?: unknown;
} {
  const code = typeof error?.code === 'number' && Number.isInteger(error.code) ? error.code : -32603;
  const message = typeof error?.message === 'string' ? error.message : 'the task failed';
  return { code, message, ...(error && 'data' in error ? { data: error.data } : {}) };
}

/**
 * How long to wait before the next poll: the server's interval, kept between a floor (a server
 * must not make us hammer it, nor us it) and a ceiling (a result must not sit unseen for long).
 */
export function pollDelay(
  pollIntervalMs: number | undefined,
  bounds: { floorMs: number; ceilingMs: number; defaultMs: number },
): number {
  const wanted = pollIntervalMs ?? bounds.defaultMs;
  return Math.min(bounds.ceilingMs, Math.max(bounds.floorMs, wanted));
}

/** 2025-11-25: the `_meta` key that ties a server-to-client request to the task it belongs to. */
const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** 2025-11-25: the task a server-to-client request belongs to, from its `_meta`; undefined for none. */
export function relatedTaskOf(meta: unknown): string | undefined {
  const related = isJsonObject(meta) ? meta[RELATED_TASK_META] : undefined;
  return isJsonObject(related) && typeof related.taskId === 'string' ? related.taskId : undefined;
}

function isDuration(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
