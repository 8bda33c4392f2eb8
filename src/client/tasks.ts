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
  CapabilityMissingError,
  type Era,
  ErrorCode,
  InvalidResponseError,
  isJsonObject,
  isTerminal,
  type JsonObject,
  McpError,
  parseCreateTaskResult,
  parseTask,
  pollDelay,
  RequestCancelledError,
  type RequestOptions,
  TaskEndedError,
  type TaskSnapshot,
  taskErrorOf,
} from '../protocol/index.js';
import type { McpClient, normalizeCallToolResult, TaskHandle } from './client.js';
import { answerInputRequests, type QuestionContext } from './elicitation.js';
import type { CallToolOptions, TaskObserver, TaskPolling } from './options.js';

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
  /** Status notifications about one task (2025-11-25 `notifications/tasks/status`, unparsed); returns the way to stop. */
  onStatusNotice(taskId: string, listener: (notice: JsonObject) => void): () => void;
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
  /** Input keys answered before (a resumed task): a key seen again is not asked again. */
  answeredKeys?: readonly string[] | undefined;
}

/**
 * A tools/call answered with a task handle: parsed (an unusable one is an invalid response), told to
 * the observer (awaited: the gate records it before the first poll), then followed to its end.
 */
export async function followCreated(
  client: McpClient,
  result: JsonObject,
  toolName: string,
  options: CallToolOptions,
): Promise<JsonObject> {
  const port = portOf(client);
  const created = parseCreateTaskResult(result, port.era);
  if (!created) return result;
  if (!('task' in created))
    throw new InvalidResponseError(port.serverId, 'tools/call', created.problem, toolName);
  await options.task?.onTaskCreated?.(created.task);
  return followTask(port, created.task, {
    toolName,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    observer: options.task,
    polling: options.taskPolling,
    since: Date.now(),
  });
}

/** A task kept from before (a reload): followed from its handle, its first poll telling where it stands. */
export function resumeTask(
  port: TaskPort,
  handle: TaskHandle,
  options: CallToolOptions,
): Promise<JsonObject> {
  const seed: TaskSnapshot = { taskId: handle.taskId, status: 'working', pollIntervalMs: 0 };
  // The seed is a guess, not news: the observer hears from the first poll on.
  const observer = options.task;
  return followTask(port, seed, {
    toolName: handle.toolName,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    observer: observer && {
      ...observer,
      onTaskStatus: (snapshot) => {
        if (snapshot !== seed) observer.onTaskStatus?.(snapshot);
      },
    },
    polling: options.taskPolling,
    since: handle.since,
    answeredKeys: handle.answeredKeys,
  });
}

/** A 2025-11-25 `tasks/list` page: the usable tasks (others are left out). */
function taskList(result: JsonObject): { tasks: TaskSnapshot[]; nextCursor?: string } {
  const items = Array.isArray(result.tasks) ? result.tasks : [];
  const tasks = items.flatMap((item) => {
    const parsed = parseTask(item, 'legacy');
    return 'task' in parsed ? [parsed.task] : [];
  });
  return { tasks, ...(typeof result.nextCursor === 'string' ? { nextCursor: result.nextCursor } : {}) };
}

/**
 * 2025-11-25: whether this call goes out as a task. Only to a server that takes task-augmented
 * tools/call, and only for a tool that allows it: always when `required`, on request when `optional`.
 */
export async function legacyTaskRequested(
  client: McpClient,
  name: string,
  options: CallToolOptions,
): Promise<boolean> {
  const tasks = client.capabilities.tasks;
  const requests = isJsonObject(tasks) ? tasks.requests : undefined;
  const tools = isJsonObject(requests) ? requests.tools : undefined;
  if (!isJsonObject(tools) || !isJsonObject(tools.call)) return false;
  // biome-ignore lint/complexity/useLiteralKeys: a friend reads the catalog, as offerings.ts reads its parts.
  const support = (await client['catalog'].find(name))?.tool.execution?.taskSupport;
  return support === 'required' || (support === 'optional' && options.runAsTask === true);
}

/**
 * McpClient's task methods (installed on its prototype as stubs that load this module). The stub
 * hands over `normalize` so that this chunk does not import client.ts (which would split the eager one).
 */
export async function run(
  client: McpClient,
  name: string,
  args: unknown[],
  normalize: typeof normalizeCallToolResult,
): Promise<unknown> {
  const port = portOf(client);
  if (name === 'resumeTask') {
    const handle = args[0] as TaskHandle;
    // biome-ignore lint/complexity/useLiteralKeys: a friend reads private members (see portOf).
    const result = await client['questions'].track(
      resumeTask(port, handle, (args[1] ?? {}) as CallToolOptions),
    );
    return normalize(result, client.serverId, handle.toolName);
  }
  const options = (args[1] ?? {}) as RequestOptions;
  if (name === 'cancelTask') {
    await client.request('tasks/cancel', { taskId: args[0] as string }, options);
    return undefined;
  }
  if (client.era !== 'legacy') throw new CapabilityMissingError(client.serverId, 'tasks', 'tasks/list');
  const cursor = args[0] as string | undefined;
  return taskList(await client.request('tasks/list', cursor === undefined ? {} : { cursor }, options));
}

/** Each connection's port, made on its first task. */
const ports = new WeakMap<McpClient, TaskPort>();

/**
 * What following a task needs of a connection. This module is McpClient's friend, like
 * offerings.ts: it reads private parts by name, so the class carries only stubs on the eager path.
 */
// biome-ignore-start lint/complexity/useLiteralKeys: element access is how TypeScript lets a friend read private members.
function portOf(client: McpClient): TaskPort {
  let port = ports.get(client);
  if (port) return port;
  const notices = new Map<string, Set<(notice: JsonObject) => void>>();
  // 2025-11-25 status notices wake the follower of their task (which parses them).
  client['engine'].setNotificationHandler('notifications/tasks/status', (params) => {
    if (typeof params.taskId === 'string')
      for (const listener of notices.get(params.taskId) ?? []) listener(params);
  });
  port = {
    serverId: client.serverId,
    get era() {
      return client.era;
    },
    request: (method, params, options) => client.request(method, params, options),
    get questionContext() {
      return client['questionContext'];
    },
    get canCancel() {
      const tasks = client.capabilities.tasks;
      return client.era === 'modern' || (isJsonObject(tasks) && isJsonObject(tasks.cancel));
    },
    onStatusNotice: (taskId, listener) => {
      const listeners = notices.get(taskId) ?? new Set();
      listeners.add(listener);
      notices.set(taskId, listeners);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) notices.delete(taskId);
      };
    },
  };
  ports.set(client, port);
  return port;
}
// biome-ignore-end lint/complexity/useLiteralKeys: element access is how TypeScript lets a friend read private members.

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
    for (const key of options.answeredKeys ?? []) this.answered.add(key);
    this.signal = options.signal ? AbortSignal.any([options.signal, this.stop.signal]) : this.stop.signal;
  }

  private get taskId(): string {
    return this.task.taskId;
  }

  async run(): Promise<JsonObject> {
    const stopNotices = this.port.onStatusNotice(this.taskId, (notice) => {
      const parsed = parseTask(notice, 'legacy');
      if (!('task' in parsed) || parsed.task.taskId !== this.taskId) return;
      this.task = parsed.task;
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
      // Never sooner than the server asks, not even to meet the deadline: the first poll after it
      // either finds the task ended or ends it as expired.
      const delay = Math.min(
        this.bounds.ceilingMs,
        pollDelay(this.task.pollIntervalMs, this.bounds) * 2 ** failures,
      );
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
    // Kept before the next poll: a reload from here on finds these keys answered.
    await this.options.observer?.onInputAnswered?.([...this.answered]);
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
