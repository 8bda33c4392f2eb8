/**
 * McpClient: one connection to one MCP server, in whichever era it speaks. Tools are listed through
 * the catalog and called with per-call timeout, progress, cancellation and input rounds. The gate
 * (src/gate) is the only caller that should run tools on behalf of a person or a model.
 */

import {
  type CallToolResult,
  CapabilityMissingError,
  type CompleteRequestParams,
  type CompleteResult,
  ConnectionClosedError,
  describeJsonType,
  type Era,
  ErrorCode,
  type GetPromptResult,
  GuardError,
  type Implementation,
  InvalidResponseError,
  isJsonObject,
  type JsonObject,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  McpError,
  type ProtocolVersion,
  type ReadResourceResult,
  type RequestOptions,
  type RpcEngine,
  type ServerCapabilities,
  type TaskSnapshot,
  type Tool,
  TransportError,
} from '../protocol/index.js';
import { encodeHeaderValue, StreamableHttpCore } from '../transport/index.js';
import { type CatalogSnapshot, ToolCatalog } from './catalog.js';
import type { QuestionContext } from './elicitation.js';
import { type Introduction, initializeLegacy, type ServerSession, withModernMeta } from './handshake.js';
import type { ListParams } from './offerings.js';
import type { OfferingEvent, OfferingEvents } from './offerings-port.js';
import type { CallToolOptions, ConnectOptions } from './options.js';
import { QuestionScopes } from './question-scope.js';
import { mirroredHeaders } from './tool-checks.js';

/**
 * A module loaded on first use and kept; a failed load is not cached, so the next use tries again.
 * Questions (elicitation.ts) load when a server first asks one, tasks (tasks.ts) when a server first
 * answers with a task: a plain call needs neither, so they stay out of the eager bundle.
 */
function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}
const loadQuestions = lazily(() => import('./elicitation.js'));
const loadTasks = lazily(() => import('./tasks.js'));

/** A task Toolgate follows, as kept to resume it after a reload: ids only, never arguments or results. */
export interface TaskHandle {
  taskId: string;
  toolName: string;
  /** When the task was first seen (ms since epoch): its time to live counts from here. */
  since: number;
  /** 2026-07-28 input keys answered before (a reload): not asked again when the server still lists them. */
  answeredKeys?: readonly string[] | undefined;
}

/** How many `input_required` rounds one call may take before Toolgate stops it. */
export const MAX_INPUT_ROUNDS = 8;

const INPUT_CAPABLE_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Sees one JSON-RPC message as it leaves or arrives (unvalidated, as on the wire). */
export type MessageObserver = (direction: 'sent' | 'received', message: unknown) => void;

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below declares the methods installed on the prototype after the class (loaded lazily, see there).
export class McpClient {
  private readonly catalog: ToolCatalog;
  private readonly toolListeners = new Set<(snapshot: CatalogSnapshot) => void>();
  private listening: Promise<void> | undefined;
  private closed = false;
  /** Set when the connection ended without close(): the server or the channel went away. */
  private ended: Error | undefined;
  /** Running calls and open questions: a question is withdrawn once no call it can belong to runs. */
  private readonly questions = new QuestionScopes();
  private readonly observers = new Set<MessageObserver>();

  /** Use connect() to make one. */
  constructor(
    readonly serverId: string,
    private readonly engine: RpcEngine,
    private session: ServerSession,
    private readonly intro: Introduction,
    private readonly options: ConnectOptions,
  ) {
    this.catalog = new ToolCatalog({
      serverId,
      fetchPage: (cursor) => this.fetchToolsPage(cursor),
      enforceHeaderRules: () => this.session.era === 'modern' && this.isHttp,
      usesTtl: () => this.session.era === 'modern',
      onWarning: options.onWarning,
    });
    this.catalog.subscribe((snapshot) => {
      for (const listener of this.toolListeners) listener(snapshot);
    });
    this.installHandlers();
    this.tapTransport();
    engine.onclose = () => {
      if (!this.closed)
        this.ended = new ConnectionClosedError(
          `the connection to ${serverId} (${engine.transport.label}) has ended; reconnect it to call its tools`,
        );
    };
  }

  /**
   * Why this connection takes no more calls (it ended without close(), or the server lost one new
   * session too many); undefined while it works. The gate refuses calls to it before sending anything.
   */
  get failure(): Error | undefined {
    return this.ended ?? this.engine.transport.failure;
  }

  /** `modern` (2026-07-28, per-request metadata) or `legacy` (initialize handshake). */
  get era(): Era {
    return this.session.era;
  }
  get protocolVersion(): ProtocolVersion {
    return this.session.protocolVersion;
  }
  /** The server's self-description: for display only, never for decisions. */
  get serverInfo(): Implementation | undefined {
    return this.session.serverInfo;
  }
  get capabilities(): ServerCapabilities {
    return this.session.capabilities;
  }
  /** Whether the server declared `tools`: without it, tools/list and tools/call are never sent. */
  get offersTools(): boolean {
    return isJsonObject(this.session.capabilities.tools);
  }
  get instructions(): string | undefined {
    return this.session.instructions;
  }
  /** Where the connection goes, for messages. */
  get label(): string {
    return this.engine.transport.label;
  }
  /** Inbound messages dropped as malformed or unmatched. */
  get droppedMessages(): number {
    return this.engine.violations;
  }
  private get isHttp(): boolean {
    return this.engine.transport instanceof StreamableHttpCore;
  }

  /** Lists every tool (all pages), served from the catalog while fresh. */
  async listTools(options: { refresh?: boolean } = {}): Promise<Tool[]> {
    const snapshot = await this.listCatalog(options);
    return snapshot.entries.map((entry) => entry.tool);
  }

  /** The full catalog listing: entries with qualified names and warnings, rejected tools, completeness. */
  async listCatalog(options: { refresh?: boolean } = {}): Promise<CatalogSnapshot> {
    const snapshot = await this.catalog.list(options.refresh ?? false);
    this.listenForListChanges();
    return snapshot;
  }

  /** Calls `listener` after every new listing (after a list change, call listTools to refetch). */
  onToolsChanged(listener: (snapshot: CatalogSnapshot) => void): () => void {
    this.toolListeners.add(listener);
    return () => this.toolListeners.delete(listener);
  }

  /** Called when the server says its tool list changed; the catalog is already marked stale. */
  onToolListChanged?: () => void;

  /**
   * Calls a tool. A tool execution error comes back as a result with `isError: true`; protocol
   * failures, timeouts and cancellations are thrown as ToolgateError subclasses.
   */
  callTool(name: string, args: JsonObject = {}, options: CallToolOptions = {}): Promise<CallToolResult> {
    return this.questions.track(this.runToolCall(name, args, options));
  }

  private async runToolCall(
    name: string,
    args: JsonObject,
    options: CallToolOptions,
  ): Promise<CallToolResult> {
    if (!this.offersTools) throw new CapabilityMissingError(this.serverId, 'tools', 'tools/call');
    // 2025-11-25: only to a server that takes task-augmented tools/call (tasks.ts reads the tool's taskSupport).
    const asTask =
      this.era === 'legacy' &&
      isJsonObject(this.capabilities.tasks) &&
      (await (await loadTasks()).legacyTaskRequested(this, name, options));
    const run = async (): Promise<JsonObject> => {
      const headers = { ...(await this.headersFor(name, args)), ...options.headers };
      // Trace context, when the gate gives one; the engine adds progressToken beside it.
      const params: JsonObject = {
        name,
        arguments: args,
        ...(options.meta && { _meta: options.meta }),
        // 2025-11-25 task augmentation: the server keeps the task as long as it likes (no ttl asked).
        ...(asTask ? { task: {} } : {}),
      };
      return this.requestWithInput(
        'tools/call',
        params,
        { ...options, headers, subject: { ...options.subject, tool: name } },
        name,
      );
    };
    let result: JsonObject;
    try {
      result = await run();
    } catch (error) {
      // 2026-07-28: a HeaderMismatch means our copy of the schema is stale: relist once and retry.
      if (!(error instanceof McpError && error.code === ErrorCode.HeaderMismatch)) throw error;
      this.catalog.invalidate();
      await this.catalog.list(true);
      await options.beforeResend?.('header-mismatch');
      result = await run();
    }
    // A task handle instead of a result (modern: resultType "task"; legacy: `task` without content).
    if (
      result.resultType === 'task' ||
      (asTask && isJsonObject(result.task) && !Array.isArray(result.content))
    ) {
      result = await (await loadTasks()).followCreated(this, result, name, options);
    }
    return normalizeCallToolResult(result, this.serverId, name);
  }

  /**
   * Listens for `resourceListChanged`, `promptListChanged` or `resourceUpdated`; returns the way to
   * stop. On 2026-07-28 this opens (or widens) the `subscriptions/listen` stream that carries them.
   */
  on<E extends OfferingEvent>(event: E, listener: OfferingEvents[E]): () => void {
    const added = this.offer('listen', [event, listener]);
    return () => void added.then((stop) => (stop as () => void)());
  }

  /** Runs one of offerings.ts's operations (its friend module: it reads this connection's internals). */
  private offer(name: string, args: unknown[]): Promise<unknown> {
    return import('./offerings.js').then((offerings) => offerings.run(this, name, args));
  }

  /** Sends a request in the current era (adds modern `_meta`; re-initializes an expired legacy session once). */
  async request(method: string, params: JsonObject = {}, options: RequestOptions = {}): Promise<JsonObject> {
    // Errors name the server by this connection's id, as the gate and the panel do.
    const merged: RequestOptions = {
      ...this.options.requestDefaults,
      ...options,
      subject: { server: this.serverId, ...options.subject },
    };
    try {
      const result = await this.engine.request(method, this.decorate(params), merged);
      // 2026-07-28: a task handle answers only tools/call; to anything else it is an invalid response.
      if (result.resultType === 'task' && method !== 'tools/call')
        throw new InvalidResponseError(this.serverId, method, 'a task handle answers only tools/call');
      return result;
    } catch (error) {
      if (
        !(error instanceof TransportError && error.failure === 'session-expired') ||
        this.session.era !== 'legacy'
      )
        throw error;
      await this.reinitialize();
      await merged.beforeResend?.('session-expired');
      return this.engine.request(method, this.decorate(params), merged);
    }
  }

  /** Legacy liveness check (2026-07-28 removed ping). */
  async ping(options: RequestOptions = {}): Promise<void> {
    if (this.session.era === 'modern') return;
    await this.request('ping', {}, options);
  }

  /**
   * Calls `observer` with every message this connection sends or receives from now on, for debugging
   * views (the raw exchange, the server's log messages). Observers cannot change or stop a message.
   */
  observeMessages(observer: MessageObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Ends the conversation: closes streams and, for a legacy HTTP session, deletes it on the server. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.questions.closeAll();
    await this.engine.close();
  }

  private decorate(params: JsonObject): JsonObject {
    return this.session.era === 'modern'
      ? withModernMeta(params, this.session.protocolVersion, this.intro)
      : params;
  }

  /** Runs a request through `input_required` rounds: ask the host, retry under a new id with the answers. */
  private async requestWithInput(
    method: string,
    params: JsonObject,
    options: RequestOptions,
    toolName?: string,
  ): Promise<JsonObject> {
    let retryFields: JsonObject = {};
    for (let round = 0; ; round++) {
      const result = await this.request(method, { ...params, ...retryFields }, options);
      if (result.resultType !== 'input_required' || !INPUT_CAPABLE_METHODS.has(method)) return result;
      if (round >= MAX_INPUT_ROUNDS)
        throw new GuardError(
          `${this.serverId}: ${toolName ?? method} asked for more input ${MAX_INPUT_ROUNDS} times in a row; Toolgate stopped it`,
        );
      options.signal?.throwIfAborted();
      const requests = isJsonObject(result.inputRequests) ? result.inputRequests : undefined;
      retryFields = {
        ...(requests
          ? {
              inputResponses: await (await loadQuestions()).answerInputRequests(
                this.questionContext,
                requests,
                toolName,
                options.signal,
              ),
            }
          : {}),
        ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
      };
      await options.beforeResend?.('input-required');
    }
  }

  /** Who the server's questions come from and who answers them (elicitation.ts). */
  private get questionContext(): QuestionContext {
    return { serverId: this.serverId, onElicit: this.options.onElicit };
  }

  private async headersFor(name: string, args: JsonObject): Promise<Record<string, string>> {
    if (this.session.era !== 'modern' || !this.isHttp) return {};
    const entry = await this.catalog.find(name);
    return entry ? mirroredHeaders(entry.headerBindings, args, encodeHeaderValue) : {};
  }

  private async fetchToolsPage(cursor: string | undefined): Promise<ListToolsResult> {
    // A server that declared no tools offers none; asking would break the capability contract.
    if (!this.offersTools) return { tools: [] };
    const result = await this.request('tools/list', cursor === undefined ? {} : { cursor });
    return result as unknown as ListToolsResult;
  }

  /** Wraps the transport's two ends (the engine set onmessage already) so observers see both ways. */
  private tapTransport(): void {
    const transport = this.engine.transport;
    const tell = (direction: 'sent' | 'received', message: unknown) => {
      for (const observer of this.observers)
        try {
          observer(direction, message);
        } catch {
          // A debugging view must never break the connection it watches.
        }
    };
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      if (this.observers.size > 0) tell('received', message);
      deliver?.(message);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (this.observers.size > 0) tell('sent', message);
      return send(message, options);
    };
  }

  private installHandlers(): void {
    this.engine.setRequestHandler('ping', () => ({}));
    if (this.options.onElicit)
      this.engine.setRequestHandler('elicitation/create', async (params, request) => {
        const question = this.questions.open(request.id);
        try {
          const { elicit } = await loadQuestions();
          return (await elicit(this.questionContext, params, undefined, question.signal)) as JsonObject;
        } finally {
          question.close();
        }
      });
    this.engine.setNotificationHandler('notifications/cancelled', (params) =>
      this.questions.cancel(params.requestId),
    );
    this.engine.setNotificationHandler('notifications/tools/list_changed', () => {
      this.catalog.invalidate();
      this.onToolListChanged?.();
    });
  }

  /** Modern servers push list changes only on a `subscriptions/listen` stream, opened once on demand. */
  private listenForListChanges(): void {
    if (this.listening || this.closed || this.session.era !== 'modern') return;
    if (!this.session.capabilities.tools?.listChanged) return;
    this.listening = this.request(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      { timeoutMs: Number.POSITIVE_INFINITY },
    ).then(
      () => {
        // A graceful end: the next listing opens a new stream.
        this.listening = undefined;
      },
      (error: unknown) => {
        this.listening = undefined;
        if (!this.closed)
          this.options.onWarning?.({
            serverId: this.serverId,
            code: 'subscription',
            message: `${this.serverId}: the list-change subscription ended (${(error as Error).message}); tool lists refresh on their ttl instead`,
          });
      },
    );
  }

  private async reinitialize(): Promise<void> {
    // A server that forgets the new session at once too gets another: the transport bounds the run
    // (limits.maxSessionRestarts) and then fails for good with an error that is not session-expired.
    for (;;) {
      try {
        this.session = await initializeLegacy(this.engine, this.intro, this.session.protocolVersion);
        break;
      } catch (error) {
        if (!(error instanceof TransportError && error.failure === 'session-expired') || this.failure)
          throw error;
      }
    }
    this.catalog.invalidate();
    const transport = this.engine.transport;
    if (transport instanceof StreamableHttpCore) void transport.openServerStream().catch(() => undefined);
  }
}

// Resources, prompts and completion, under the official SDK Client's names: each loads offerings.ts
// on first use, so connect, list and call do not pay for them. Their signatures are declared below.
for (const name of [
  'listResources',
  'listResourceTemplates',
  'readResource',
  'subscribeResource',
  'unsubscribeResource',
  'listPrompts',
  'getPrompt',
  'complete',
])
  (McpClient.prototype as unknown as Record<string, unknown>)[name] = function (
    this: { offer(name: string, args: unknown[]): Promise<unknown> },
    ...args: unknown[]
  ) {
    return this.offer(name, args);
  };

// Tasks, loaded on first use (tasks.ts reads this connection's internals, as offerings.ts does).
for (const name of ['resumeTask', 'cancelTask', 'listTasks'])
  (McpClient.prototype as unknown as Record<string, unknown>)[name] = function (
    this: McpClient,
    ...args: unknown[]
  ) {
    return loadTasks().then((tasks) => tasks.run(this, name, args, normalizeCallToolResult));
  };

export interface McpClient {
  /** `resources/list`: every page within bounds, or the one page at `params.cursor`. */
  listResources(params?: ListParams, options?: RequestOptions): Promise<ListResourcesResult>;
  /** `resources/templates/list`: every page within bounds, or the one page at `params.cursor`. */
  listResourceTemplates(params?: ListParams, options?: RequestOptions): Promise<ListResourceTemplatesResult>;
  /**
   * `resources/read`, answering input rounds. Not gated: people, sites, apps and models read through
   * the gate (`gate.read()`), which asks, records and checks.
   */
  readResource(params: { uri: string }, options?: RequestOptions): Promise<ReadResourceResult>;
  /** Updates about one resource: `resources/subscribe` (legacy) or `subscriptions/listen` (2026-07-28). */
  subscribeResource(params: { uri: string }, options?: RequestOptions): Promise<JsonObject>;
  /** No more updates about it: `resources/unsubscribe` (legacy) or a stream without it (2026-07-28). */
  unsubscribeResource(params: { uri: string }, options?: RequestOptions): Promise<JsonObject>;
  /** `prompts/list`: every page within bounds, or the one page at `params.cursor`. */
  listPrompts(params?: ListParams, options?: RequestOptions): Promise<ListPromptsResult>;
  /** `prompts/get`, answering input rounds. Not gated: the gate's `getPrompt()` is. */
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: RequestOptions,
  ): Promise<GetPromptResult>;
  /** `completion/complete`: suggestions for a prompt argument or a template's URI variable. */
  complete(params: CompleteRequestParams, options?: RequestOptions): Promise<CompleteResult>;
  /**
   * Follows a task this connection's server runs until it ends: after a reload, `handle` is what
   * was kept of it. Resolves with the call's result; rejects as the call would have, or with
   * TaskEndedError (expired, unknown to the server, cancelled there).
   */
  resumeTask(handle: TaskHandle, options?: CallToolOptions): Promise<CallToolResult>;
  /** `tasks/cancel`: asks the server to stop a task (it may finish anyway; the follower sees which). */
  cancelTask(taskId: string, options?: RequestOptions): Promise<void>;
  /** 2025-11-25 `tasks/list` (one page): the server's tasks this client may see. */
  listTasks(
    cursor?: string,
    options?: RequestOptions,
  ): Promise<{ tasks: TaskSnapshot[]; nextCursor?: string }>;
}

/** Makes a result safe to read: `content` is always an array; the modern `resultType` is dropped. */
export function normalizeCallToolResult(
  result: JsonObject,
  server = 'the server',
  tool?: string,
): CallToolResult {
  const { resultType: _resultType, ...rest } = result;
  const problem = callToolResultProblem(rest);
  if (problem) throw new InvalidResponseError(server, 'tools/call', problem, tool);
  return rest as unknown as CallToolResult;
}

/** What makes a tools/call result unusable, or undefined: `content` must be an array of typed blocks. */
function callToolResultProblem(result: JsonObject): string | undefined {
  const { content } = result;
  if (!Array.isArray(content))
    return content === undefined
      ? 'the result has no "content" array'
      : `"content" must be an array, not ${describeJsonType(content)}`;
  const bad = content.findIndex((block) => !isJsonObject(block) || typeof block.type !== 'string');
  if (bad !== -1) return `content[${bad}] is not a content block (an object with a "type")`;
  if (result.isError !== undefined && typeof result.isError !== 'boolean')
    return `"isError" must be true or false, not ${describeJsonType(result.isError)}`;
  return undefined;
}
