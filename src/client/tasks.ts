/**
 * Following a task to its end, in both eras. Loaded by client.ts with `import()` when a server first
 * answers a call with a task handle, so a plain call never carries it.
 *
 * - 2025-11-25 (core): poll `tasks/get` (a `notifications/tasks/status` wakes the poll early); on
 *   `input_required` call `tasks/result`, which the server holds open while it asks its questions
 *   (ordinary `elicitation/create` requests tagged with the task); at the end `tasks/result` brings
 *   exactly what the call would have returned.
 * - 2026-07-28 (extension `io.modelcontextprotocol/tasks`): poll `tasks/get`, which inlines the
 *   result, the error or the outstanding `inputRequests`; answer each input key once through
 *   `tasks/update`.
 * Both: `pollIntervalMs` honoured between a floor and a ceiling, longer waits after failed polls,
 * `tasks/cancel` when the caller aborts, and an end at the task's time to live.
 */

import {
  type Era,
  ErrorCode,
  InvalidResponseError,
  isJsonObject,
  isTerminal,
  type JsonObject,
  McpError,
  parseTask,
  pollDelay,
  RequestCancelledError,
  type RequestOptions,
  TaskEndedError,
  type TaskSnapshot,
  taskErrorOf,
} from '../protocol/index.js';
import { answerInputRequests, type QuestionContext } from './elicitation.js';
import type { TaskObserver, TaskPolling } from './options.js';

/** Defaults: a server may not make us poll more often than 4 times a second, nor less than twice a minute. */
export const DEFAULT_TASK_POLLING: Required<TaskPolling> = {
  floorMs: 250,
  ceilingMs: 30_000,
  defaultMs: 1_000,
};
/** Polls in a row that may fail (each waiting twice as long as the last) before the task is given up. */
export const MAX_POLL_FAILURES = 6;

/** What following a task needs of its connection. */
export interface TaskPort {
  readonly serverId: string;
  readonly era: Era;
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  readonly questionContext: QuestionContext;
  /** Whether the server takes `tasks/cancel` (2025-11-25 declares it; 2026-07-28 always does). */
  readonly canCancel: boolean;
  /** Status notifications about one task (2025-11-25 `notifications/tasks/status`); returns the way to stop. */
  onStatusNotice(taskId: string, listener: (task: TaskSnapshot) => void): () => void;
}

export interface FollowOptions {
  toolName: string;
  signal?: AbortSignal | undefined;
  /** Each poll's own timeout (the task as a whole ends at its time to live, not at this). */
  timeoutMs?: number | undefined;
  observer?: TaskObserver | undefined;
  polling?: TaskPolling | undefined;
  /** When the task was first seen (ms since epoch): its time to live counts from here. Default: now. */
  since?: number | undefined;
}

/**
 * Follows a task until it ends. Resolves with the result the call would have returned; rejects with
 * the call's JSON-RPC error (McpError), TaskEndedError (expired, unknown, cancelled at the server)
 * or RequestCancelledError (the caller aborted; `tasks/cancel` was sent).
 */
export async function followTask(
  port: TaskPort,
  first: TaskSnapshot,
  options: FollowOptions,
): Promise<JsonObject> {
  const follower = new TaskFollower(port, first, options);
  return follower.run();
}

class TaskFollower {
  private task: TaskSnapshot;
  private reported: string | undefined;
  private readonly bounds: Required<TaskPolling>;
  private readonly since: number;
  /** Input keys answered already (2026-07-28): a key seen again on a later poll is not asked again. */
  private readonly answered = new Set<string>();
  /** Ends the follower's own requests (a held `tasks/result`) once it stops. */
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private legacyResult: Promise<JsonObject> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly port: TaskPort,
    first: TaskSnapshot,
    private readonly options: FollowOptions,
  ) {
    this.task = first;
    this.bounds = { ...DEFAULT_TASK_POLLING, ...options.polling };
    this.since = options.since ?? Date.now();
    this.signal = options.signal ? AbortSignal.any([options.signal, this.stop.signal]) : this.stop.signal;
  }

  private get taskId(): string {
    return this.task.taskId;
  }

  async run(): Promise<JsonObject> {
    const stopNotices = this.port.onStatusNotice(this.taskId, (task) => {
      this.task = task;
      this.wake?.();
    });
    try {
      return await this.loop();
    } catch (error) {
      if (this.options.signal?.aborted) {
        await this.cancelAtServer();
        throw new RequestCancelledError('tools/call', this.options.signal.reason, {
          server: this.port.serverId,
          tool: this.options.toolName,
        });
      }
      throw error;
    } finally {
      stopNotices();
      this.options.observer?.onNextPoll?.(undefined);
      this.stop.abort();
    }
  }

  private async loop(): Promise<JsonObject> {
    let failures = 0;
    for (;;) {
      this.report();
      if (isTerminal(this.task.status)) return this.finish();
      if (this.task.status === 'input_required') {
        if (this.port.era === 'modern') await this.answerModern();
        else this.legacyResult ??= this.fetchLegacyResult();
      }
      const deadline = this.deadline();
      if (deadline !== undefined && Date.now() >= deadline && this.polledAfter(deadline))
        throw this.expired();
      // After a failed poll, twice the wait of the last (up to the ceiling): a struggling server gets room.
      let delay = Math.min(
        this.bounds.ceilingMs,
        pollDelay(this.task.pollIntervalMs, this.bounds) * 2 ** failures,
      );
      if (deadline !== undefined) delay = Math.max(0, Math.min(delay, deadline - Date.now()));
      const settled = await this.wait(delay);
      if (settled) return settled.result;
      try {
        this.task = await this.get();
        this.lastPollAt = Date.now();
        failures = 0;
      } catch (error) {
        this.signal.throwIfAborted();
        if (error instanceof McpError && error.code === ErrorCode.InvalidParams)
          throw new TaskEndedError(
            'unknown',
            this.taskId,
            `${this.port.serverId} no longer knows task ${this.taskId} of ${this.options.toolName} (it expired or was never its own): ${error.serverMessage}`,
          );
        if (error instanceof InvalidResponseError) throw error;
        failures++;
        if (failures > MAX_POLL_FAILURES) throw error;
      }
    }
  }

  private lastPollAt = 0;
  private polledAfter(at: number): boolean {
    return this.lastPollAt >= at;
  }

  /** When the task's time to live runs out, counted from when it was first seen; undefined for none. */
  private deadline(): number | undefined {
    const ttl = this.task.ttlMs;
    return typeof ttl === 'number' ? this.since + ttl : undefined;
  }

  private expired(): TaskEndedError {
    return new TaskEndedError(
      'expired',
      this.taskId,
      `task ${this.taskId} of ${this.options.toolName} on ${this.port.serverId} was still ${this.task.status} when its time to live (${this.task.ttlMs} ms) ran out`,
    );
  }

  /** Tells the observer about a new status or status message (not about an unchanged poll). */
  private report(): void {
    const key = `${this.task.status}\u0000${this.task.statusMessage ?? ''}`;
    if (key === this.reported) return;
    this.reported = key;
    this.options.observer?.onTaskStatus?.(this.task);
  }

  private async finish(): Promise<JsonObject> {
    const { task } = this;
    if (task.status === 'cancelled')
      throw new TaskEndedError(
        'cancelled',
        task.taskId,
        `task ${task.taskId} of ${this.options.toolName} was cancelled at ${this.port.serverId}${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
      );
    if (this.port.era === 'legacy') return this.legacyResult ?? this.fetchLegacyResult();
    if (task.status === 'failed') {
      const { code, message, data } = taskErrorOf(task.error);
      throw new McpError(
        code,
        message,
        data,
        `${this.port.serverId}: task ${task.taskId} of ${this.options.toolName}`,
      );
    }
    return task.result ?? {};
  }

  /** Waits `ms`, or less when a status notice or the legacy result arrives; the result if it did. */
  private wait(ms: number): Promise<{ result: JsonObject } | undefined> {
    this.options.observer?.onNextPoll?.(Date.now() + ms);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', aborted);
        this.wake = undefined;
      };
      const timer = setTimeout(() => {
        done();
        resolve(undefined);
      }, ms);
      const aborted = () => {
        done();
        reject(this.signal.reason);
      };
      if (this.signal.aborted) return aborted();
      this.signal.addEventListener('abort', aborted, { once: true });
      this.wake = () => {
        done();
        resolve(undefined);
      };
      this.legacyResult?.then(
        (result) => {
          done();
          resolve({ result });
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }

  private async get(): Promise<TaskSnapshot> {
    const answer = await this.port.request('tasks/get', { taskId: this.taskId }, this.requestOptions());
    const parsed = parseTask(answer, this.port.era);
    if (!('task' in parsed)) throw new InvalidResponseError(this.port.serverId, 'tasks/get', parsed.problem);
    if (parsed.task.taskId !== this.taskId)
      throw new InvalidResponseError(
        this.port.serverId,
        'tasks/get',
        `asked for task ${this.taskId}, got ${parsed.task.taskId}`,
      );
    return parsed.task;
  }

  /** 2025-11-25: held open by the server until the task ends; its questions arrive meanwhile. */
  private fetchLegacyResult(): Promise<JsonObject> {
    const result = this.port.request(
      'tasks/result',
      { taskId: this.taskId },
      { ...this.requestOptions(), timeoutMs: Number.POSITIVE_INFINITY },
    );
    // Settled by wait() or finish(); never an unhandled rejection when the follower stops first.
    result.catch(() => undefined);
    return result;
  }

  /** 2026-07-28: asks each new input key once, then sends the answers in one `tasks/update`. */
  private async answerModern(): Promise<void> {
    const requests = this.task.inputRequests ?? {};
    const fresh: JsonObject = {};
    for (const [key, request] of Object.entries(requests)) if (!this.answered.has(key)) fresh[key] = request;
    if (Object.keys(fresh).length === 0) return;
    for (const key of Object.keys(fresh)) this.answered.add(key);
    const inputResponses = await answerInputRequests(
      { ...this.port.questionContext, taskId: this.taskId },
      fresh,
      this.options.toolName,
      this.signal,
    );
    await this.port.request('tasks/update', { taskId: this.taskId, inputResponses }, this.requestOptions());
  }

  /** Best effort: the caller is gone either way, and the server may have ended the task already. */
  private async cancelAtServer(): Promise<void> {
    if (!this.port.canCancel || isTerminal(this.task.status)) return;
    await this.port
      .request('tasks/cancel', { taskId: this.taskId }, { timeoutMs: this.options.timeoutMs ?? 10_000 })
      .catch(() => undefined);
  }

  private requestOptions(): RequestOptions {
    return {
      signal: this.signal,
      ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      subject: { server: this.port.serverId, tool: this.options.toolName },
    };
  }
}

/** The `_meta` of a server-to-client request names the task it belongs to (2025-11-25), if any. */
export function relatedTaskOf(params: JsonObject, key: string): string | undefined {
  const meta = isJsonObject(params._meta) ? params._meta : undefined;
  const related = meta && isJsonObject(meta[key]) ? meta[key] : undefined;
  return related && typeof related.taskId === 'string' ? related.taskId : undefined;
}
