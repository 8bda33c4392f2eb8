/**
 * The host side of one MCP App: Toolgate acts as the View's MCP server over the sandbox proxy's
 * channel. It hands the proxy the app's HTML, answers `ui/initialize` with the host's capabilities
 * and context, sends tool input and results once the View says it is initialized, and turns the
 * View's requests into the host's actions through `AppHooks` (tool calls go to the gate there).
 * Transport and engine are Toolgate's own: exact-origin handshake, bounded messages, correlation.
 */

import {
  type CallToolResult,
  isJsonObject,
  type JsonObject,
  McpError,
  type RequestId,
  RpcEngine,
} from '../protocol/index.js';
import { type AppHost, type AppIdentity, appCaller } from '../session/index.js';
import type { Transport } from '../transport/index.js';
import { permissionsObject } from './csp.js';
import type { HostContext } from './host-context.js';
import { type AppRateLimits, type LimitedMethod, limitReason, pageAppRateLimits } from './message-limit.js';
import {
  type AppPermission,
  DISPLAY_MODES,
  type DisplayMode,
  UI_PROTOCOL_VERSION,
  UiMethod,
  type UiResourceCsp,
} from './spec.js';

/** JSON-RPC code the specification uses for a refused or failed app request. */
const APP_REQUEST_REFUSED = -32000;

/** What the View gets: its document (policy first), what it may reach, and the host's context. */
export interface AppLaunch {
  app: AppIdentity;
  /** The app's HTML with its Content-Security-Policy as the first element. */
  html: string;
  /** The declared origins Toolgate kept (what the policy allows beyond the default). */
  csp: Required<UiResourceCsp>;
  /** Permissions the person granted (the iframe `allow` attribute). */
  permissions: readonly AppPermission[];
  /** The View frame's sandbox tokens. */
  sandbox: string;
  hostContext: HostContext;
}

/** What the host does for the View's requests. Each may throw: the View gets the message. */
export interface AppHooks {
  /** Where the app's events go: its controller's app host (the host app's listeners). */
  events: Pick<AppHost, 'emit' | 'listenerCount'>;
  /** Runs an app's `tools/call` (same server only, visibility checked, through the gate). */
  callTool(name: string, args: JsonObject, signal: AbortSignal): Promise<CallToolResult>;
  readResource(uri: string): Promise<JsonObject>;
  /** Asks the person whether to open an http(s) link; true to open it. */
  confirmOpenLink(url: URL): Promise<boolean>;
  onSize(size: { width?: number; height?: number }): void;
  /**
   * The View asks for a display mode; returns the mode in force after it (the one asked for, or the
   * current one when the host does not offer it). Absent: inline only.
   */
  requestDisplayMode?(mode: DisplayMode): DisplayMode;
  /** The View said it is initialized (it can take tool input). */
  onInitialized?(): void;
  /** The View asked to be closed. */
  onRequestTeardown?(): void;
  /** The channel ended (the proxy went away, the View navigated, close()). */
  onClosed?(): void;
}

const HOST_INFO = { name: 'Toolgate', version: '0.1.0' };

export class AppSession {
  private readonly engine: RpcEngine;
  private initializeSeen = false;
  private initialized = false;
  private resourceSent = false;
  private closed = false;
  /** Host-to-View notifications held until the View is initialized (the specification's order). */
  private queue: { method: string; params: JsonObject }[] = [];
  private inputSent = false;
  /** The View's running tools/call requests, by its request id, so its cancellation reaches the gate. */
  private readonly running = new Map<RequestId, AbortController>();

  constructor(
    private readonly transport: Transport,
    private readonly launch: AppLaunch,
    private readonly hooks: AppHooks,
    /** The app's message and context buckets (the page's, shared by every session, unless given). */
    private readonly limits: AppRateLimits = pageAppRateLimits,
  ) {
    this.engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    this.engine.onclose = () => this.ended();
    this.install();
  }

  /** Opens the channel to the sandbox proxy; the View starts when the proxy says it is ready. */
  async start(): Promise<void> {
    await this.transport.start();
  }

  /** The complete arguments of the call that opened the View (sent once). */
  toolInput(args: JsonObject): void {
    if (this.inputSent) return;
    this.inputSent = true;
    this.toView(UiMethod.toolInput, { arguments: args });
  }

  /** Arguments still arriving (a model streaming them); ignored once the complete input went out. */
  toolInputPartial(args: JsonObject): void {
    if (!this.inputSent) this.toView(UiMethod.toolInputPartial, { arguments: args });
  }

  toolResult(result: CallToolResult): void {
    this.toView(UiMethod.toolResult, result as unknown as JsonObject);
  }

  toolCancelled(reason: string): void {
    this.toView(UiMethod.toolCancelled, { reason });
  }

  /** Tells the View what changed in the host's context (theme, sizes...). */
  hostContextChanged(change: Partial<HostContext>): void {
    this.toView(UiMethod.hostContextChanged, change as JsonObject);
  }

  /**
   * Asks the View to finish (`ui/resource-teardown`), waits for its answer up to `timeoutMs`, then
   * closes the channel. A View that never initialized is closed at once.
   */
  async teardown(reason: string, timeoutMs = 2_000): Promise<void> {
    if (this.closed) return;
    if (this.initialized)
      await this.engine.request(UiMethod.resourceTeardown, { reason }, { timeoutMs }).catch(() => undefined);
    await this.close();
  }

  /** Closes the channel at once (the proxy drops the View). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const call of this.running.values())
      call.abort(new DOMException('The app was closed', 'AbortError'));
    await this.engine.close();
  }

  private ended(): void {
    this.closed = true;
    for (const call of this.running.values()) call.abort(new DOMException('The app went away', 'AbortError'));
    this.hooks.onClosed?.();
  }

  private toView(method: string, params: JsonObject): void {
    if (this.closed) return;
    if (!this.initialized) {
      this.queue.push({ method, params });
      return;
    }
    void this.engine.notify(method, params).catch(() => undefined);
  }

  private refuse(method: string, reason: string): never {
    this.hooks.events.emit({ type: 'refused', app: this.launch.app, method, reason });
    throw new McpError(APP_REQUEST_REFUSED, reason);
  }

  private install(): void {
    const { engine, launch, hooks } = this;
    engine.setNotificationHandler(UiMethod.sandboxProxyReady, () => {
      if (this.resourceSent) return;
      this.resourceSent = true;
      void engine
        .notify(UiMethod.sandboxResourceReady, {
          html: launch.html,
          sandbox: launch.sandbox,
          csp: launch.csp,
          permissions: permissionsObject(launch.permissions),
        })
        .catch(() => undefined);
    });
    engine.setRequestHandler(UiMethod.initialize, () => {
      if (this.initializeSeen) this.refuse(UiMethod.initialize, 'The app is already initialized.');
      this.initializeSeen = true;
      return {
        protocolVersion: UI_PROTOCOL_VERSION,
        hostInfo: HOST_INFO,
        hostCapabilities: {
          openLinks: {},
          serverTools: {},
          serverResources: {},
          logging: {},
          sandbox: { permissions: permissionsObject(launch.permissions), csp: launch.csp },
        },
        hostContext: launch.hostContext as unknown as JsonObject,
      };
    });
    engine.setNotificationHandler(UiMethod.initialized, () => {
      if (this.initialized || !this.initializeSeen) return;
      this.initialized = true;
      const held = this.queue;
      this.queue = [];
      for (const { method, params } of held) void engine.notify(method, params).catch(() => undefined);
      hooks.onInitialized?.();
    });
    engine.setRequestHandler('ping', () => ({}));
    engine.setRequestHandler('tools/call', async (params, request) => {
      this.mustBeInitialized('tools/call');
      const name = params.name;
      if (typeof name !== 'string' || name === '') this.refuse('tools/call', 'tools/call needs a tool name.');
      const args = params.arguments === undefined ? {} : params.arguments;
      if (!isJsonObject(args)) this.refuse('tools/call', `The arguments of ${name} must be an object.`);
      const abort = new AbortController();
      this.running.set(request.id, abort);
      try {
        return (await hooks.callTool(name, args, abort.signal)) as unknown as JsonObject;
      } catch (error) {
        this.refuse('tools/call', error instanceof Error ? error.message : String(error));
      } finally {
        this.running.delete(request.id);
      }
    });
    engine.setNotificationHandler('notifications/cancelled', (params) => {
      const id = params.requestId;
      if (typeof id === 'string' || typeof id === 'number')
        this.running.get(id)?.abort(new DOMException('The app cancelled the call', 'AbortError'));
    });
    engine.setRequestHandler('resources/read', async (params) => {
      this.mustBeInitialized('resources/read');
      if (typeof params.uri !== 'string') this.refuse('resources/read', 'resources/read needs a uri.');
      try {
        return await hooks.readResource(params.uri);
      } catch (error) {
        this.refuse('resources/read', error instanceof Error ? error.message : String(error));
      }
    });
    engine.setRequestHandler(UiMethod.openLink, async (params) => {
      this.mustBeInitialized(UiMethod.openLink);
      const url = httpUrl(params.url);
      if (!url) this.refuse(UiMethod.openLink, 'Invalid URL: Toolgate opens only http and https links.');
      if (!(await hooks.confirmOpenLink(url))) this.refuse(UiMethod.openLink, 'Link opening denied by user');
      return {};
    });
    engine.setRequestHandler(UiMethod.message, (params) => {
      this.mustBeInitialized(UiMethod.message);
      if (hooks.events.listenerCount() === 0)
        this.refuse(
          UiMethod.message,
          'Message sending denied: nothing on this page takes messages from apps.',
        );
      this.withinLimit(UiMethod.message, 'message', 'messages');
      // The app's words, with the app as their origin: what a model does about them is the app's call.
      hooks.events.emit({ type: 'message', app: launch.app, caller: appCaller(launch.app), message: params });
      return {};
    });
    engine.setRequestHandler(UiMethod.updateModelContext, (params) => {
      this.mustBeInitialized(UiMethod.updateModelContext);
      this.withinLimit(UiMethod.updateModelContext, 'model-context', 'model context updates');
      hooks.events.emit({
        type: 'model-context',
        app: launch.app,
        caller: appCaller(launch.app),
        context: params,
      });
      return {};
    });
    // The host answers with the mode in force: the one asked for where it offers it, else the current one.
    engine.setRequestHandler(UiMethod.requestDisplayMode, (params) => {
      this.mustBeInitialized(UiMethod.requestDisplayMode);
      const wanted = params.mode;
      if (typeof wanted !== 'string' || !(DISPLAY_MODES as readonly string[]).includes(wanted))
        this.refuse(UiMethod.requestDisplayMode, `Unknown display mode: ${JSON.stringify(wanted)}.`);
      return { mode: hooks.requestDisplayMode?.(wanted as DisplayMode) ?? 'inline' };
    });
    engine.setNotificationHandler(UiMethod.sizeChanged, (params) => {
      const size: { width?: number; height?: number } = {};
      if (isSize(params.width)) size.width = params.width;
      if (isSize(params.height)) size.height = params.height;
      hooks.onSize(size);
    });
    engine.setNotificationHandler('notifications/message', (params) => {
      hooks.events.emit({
        type: 'log',
        app: launch.app,
        level: typeof params.level === 'string' ? params.level : 'info',
        data: params.data,
      });
    });
    engine.setNotificationHandler(UiMethod.requestTeardown, () => hooks.onRequestTeardown?.());
  }

  /**
   * Takes a token from the app's bucket for `method`, or refuses the request: the app gets a
   * JSON-RPC error saying the limit, the host none of the request (and one `refused` event per burst,
   * so a flood does not become a flood of events).
   */
  private withinLimit(method: string, limited: LimitedMethod, what: string): void {
    const taken = this.limits.take(this.launch.app, limited);
    if (taken.ok) return;
    const reason = limitReason(what, taken.limit, taken.retryInMs);
    if (taken.firstRefusal) this.refuse(method, reason);
    throw new McpError(APP_REQUEST_REFUSED, reason);
  }

  private mustBeInitialized(method: string): void {
    if (!this.initializeSeen) this.refuse(method, `${method} before ui/initialize`);
  }
}

function isSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The URL when it is http(s); anything else (javascript:, data:, file:, custom schemes) is refused. */
function httpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    // Not a URL: the app's link is not opened.
    return undefined;
  }
}
