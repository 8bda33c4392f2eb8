/**
 * The tools the page registers through WebMCP, spoken to as an MCP server: a Transport that answers
 * the client's own requests (initialize, tools/list, tools/call, ping) from `document.modelContext`,
 * so the page's tools go through the same client, catalog checks and gate as any server's.
 *
 * What Chromium 156 with `--enable-features=WebMCP` really exposes (probed with Playwright 1.65.1,
 * 2026-11-28; build against this, not the drafts):
 *   - `document.modelContext` (a `ModelContext`, an EventTarget), in secure contexts only (https:,
 *     http://localhost); `navigator.modelContext` is undefined. Without the flag: neither.
 *   - `registerTool({ name, title?, description, inputSchema?, annotations?, execute }, { signal })`
 *     returns a Promise<undefined>; it rejects with InvalidStateError "Duplicate tool name" or
 *     "Invalid tool name" (e.g. with a space or "!"). Aborting `signal` unregisters the tool.
 *     `execute(input, client)` gets the input object and `client = { signal }`, which aborts when the
 *     agent cancels the call (then `toolcancel` fires too).
 *   - `getTools()` returns a Promise of plain objects `{ name, title, description, inputSchema
 *     (object), annotations: { readOnlyHint, untrustedContentHint, consequentialHint, debugging },
 *     origin, window }` (`window` is the registering frame's; the objects cannot be JSON'd).
 *   - `executeTool(registeredTool, input?)`: the first argument must be one of getTools()' objects
 *     (a plain `{ name }` is refused); resolves to the result as a JSON *string* (a string result
 *     comes back as `"\"plain\""`); rejects with UnknownError when `execute` threw.
 *   - events: `toolchange` (a plain Event: registered tools changed), `toolactivated` and
 *     `toolcancel` (ToolActivatedEvent / ToolCancelEvent, each with `toolName` only).
 *   - Playwright's `page.webmcp.tools()` / `callTool(name, input)` invoke through DevTools
 *     (WebMCP.invokeTool): `toolactivated` fires and `execute` runs, as for a browser agent.
 */

import {
  isJsonObject,
  type JsonObject,
  type JsonRpcMessage,
  LEGACY_VERSIONS,
  TransportError,
} from '../protocol/index.js';
import type { Transport } from './transport.js';

/** A tool as `document.modelContext.getTools()` gives it (see above). */
interface RegisteredPageTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean; consequentialHint?: boolean; untrustedContentHint?: boolean };
  origin?: string;
}

/** What a page tool's `execute` is handed besides its input. */
interface PageToolClient {
  signal?: AbortSignal;
}

/** The tool a page registers: its definition and what runs when an agent calls it. */
interface PageToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema?: JsonObject;
  annotations?: { readOnlyHint?: boolean; consequentialHint?: boolean };
  execute(input: JsonObject, client?: PageToolClient): Promise<unknown>;
}

/** The part of `document.modelContext` Toolgate uses; a test double stands in for it in Node. */
export interface ModelContextLike extends EventTarget {
  getTools(): Promise<RegisteredPageTool[]>;
  executeTool(tool: RegisteredPageTool, input?: JsonObject): Promise<string>;
  registerTool(tool: PageToolDefinition, options?: { signal?: AbortSignal }): Promise<void>;
}

/** The page's WebMCP API, when the browser has one (feature detection: nothing is polyfilled). */
export function pageModelContext(doc: unknown = globalThis.document): ModelContextLike | undefined {
  const context = (doc as { modelContext?: unknown } | undefined)?.modelContext;
  return typeof context === 'object' && context !== null && 'getTools' in context
    ? (context as ModelContextLike)
    : undefined;
}

/**
 * Names of the tools Toolgate itself registered for the browser's agent (exposeToAgent): they are a
 * server's tools already, so "This page" does not list them a second time.
 */
const registeredByToolgate = new Set<string>();

/** Registers a tool of Toolgate's with the page's WebMCP; aborting `signal` unregisters it. */
export async function registerGatedTool(
  context: ModelContextLike,
  tool: PageToolDefinition,
  signal: AbortSignal,
): Promise<void> {
  // Marked before it is registered: the `toolchange` that registering fires must not list it.
  registeredByToolgate.add(tool.name);
  try {
    await context.registerTool(tool, { signal });
  } catch (error) {
    registeredByToolgate.delete(tool.name);
    throw error;
  }
  signal.addEventListener('abort', () => registeredByToolgate.delete(tool.name), { once: true });
}

/**
 * Tools the host registered through Toolgate (registerPageTools): "This page" lists them, and a
 * call that passed the gate runs their own `execute`. What the browser's agent sees under the same
 * name is a stand-in whose `execute` goes through the gate first.
 */
const hostTools = new Map<string, PageToolDefinition>();

/**
 * Registers a host's page tool: `tool` (with its own `execute`) for "This page", and under its name
 * a WebMCP tool for the agent whose `execute` is `gated`. Aborting `signal` unregisters both.
 */
export async function registerHostTool(
  context: ModelContextLike,
  tool: PageToolDefinition,
  gated: PageToolDefinition['execute'],
  signal: AbortSignal,
): Promise<void> {
  if (hostTools.has(tool.name)) throw new Error(`A page tool "${tool.name}" is registered already.`);
  hostTools.set(tool.name, tool);
  try {
    await registerGatedTool(context, { ...tool, execute: gated }, signal);
  } catch (error) {
    hostTools.delete(tool.name);
    throw error;
  }
  signal.addEventListener('abort', () => hostTools.delete(tool.name), { once: true });
}

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

export class WebMcpPageTransport implements Transport {
  onmessage?: ((message: unknown) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  readonly label: string;
  private open = false;
  private readonly changed = () => {
    if (this.open)
      this.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as JsonRpcMessage);
  };

  /** `origin`: the page's; only tools registered at it are listed (not a framed page's). */
  constructor(
    private readonly context: ModelContextLike,
    private readonly origin: string,
  ) {
    this.label = `the page's WebMCP tools (${origin})`;
  }

  async start(): Promise<void> {
    this.open = true;
    this.context.addEventListener('toolchange', this.changed);
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    this.context.removeEventListener('toolchange', this.changed);
    this.onclose?.();
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (!this.open)
      throw new TransportError(this.origin, 'unreachable', `${this.label}: the connection is closed`);
    const request = message as { id?: string | number; method?: string; params?: unknown };
    // Notifications (initialized, cancelled) and responses need no answer.
    if (request.id === undefined || typeof request.method !== 'string') return;
    const { id, method } = request;
    const params = isJsonObject(request.params) ? request.params : {};
    // Answered after this send resolves, as a server across a wire would.
    void this.answer(method, params).then(
      (result) => this.deliver({ jsonrpc: '2.0', id, result } as JsonRpcMessage),
      (error: { code?: number; message?: string }) =>
        this.deliver({
          jsonrpc: '2.0',
          id,
          error: { code: error.code ?? -32603, message: String(error.message ?? error) },
        } as JsonRpcMessage),
    );
  }

  private deliver(message: JsonRpcMessage) {
    queueMicrotask(() => {
      if (this.open) this.onmessage?.(message);
    });
  }

  private async answer(method: string, params: JsonObject): Promise<JsonObject> {
    switch (method) {
      case 'initialize': {
        // Legacy era only: server/discover is refused below, so the client falls back to this.
        const asked = String(params.protocolVersion ?? '');
        const version = (LEGACY_VERSIONS as readonly string[]).includes(asked) ? asked : LEGACY_VERSIONS[0];
        return {
          protocolVersion: version,
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 'This page', version: '1' },
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return { tools: (await this.ownTools()).map(asMcpTool) };
      case 'tools/call':
        return this.call(params);
      default:
        throw { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` };
    }
  }

  /** The tools registered by this page itself, at its origin, and the host's through Toolgate. */
  private async ownTools(): Promise<RegisteredPageTool[]> {
    const tools = await this.context.getTools();
    return [
      ...tools.filter(
        (tool) =>
          (tool.origin === undefined || tool.origin === this.origin) && !registeredByToolgate.has(tool.name),
      ),
      ...hostTools.values(),
    ];
  }

  private async call(params: JsonObject): Promise<JsonObject> {
    const name = params.name;
    if (typeof name !== 'string') throw { code: INVALID_PARAMS, message: 'tools/call needs a tool name' };
    const tool = (await this.ownTools()).find((candidate) => candidate.name === name);
    if (!tool) throw { code: INVALID_PARAMS, message: `The page has no tool "${name}" (any more).` };
    const input = isJsonObject(params.arguments) ? params.arguments : {};
    try {
      // The host's own tool: the gate let this call through, so its `execute` runs now.
      const hosts = hostTools.get(name);
      if (hosts) return resultOfValue(await hosts.execute(input));
      return resultOf(await this.context.executeTool(tool, input));
    } catch (error) {
      // The page's tool failed: a tool error (a result), as a server's would be.
      return {
        isError: true,
        content: [{ type: 'text', text: `The page's tool failed: ${(error as Error)?.message ?? error}` }],
      };
    }
  }
}

/** A page tool as an MCP tool definition. Annotations are the page's claims, shown as such. */
function asMcpTool(tool: RegisteredPageTool): JsonObject {
  const hints = tool.annotations ?? {};
  return {
    name: tool.name,
    ...(typeof tool.title === 'string' && tool.title ? { title: tool.title } : {}),
    description: typeof tool.description === 'string' ? tool.description : '',
    inputSchema: isJsonObject(tool.inputSchema) ? tool.inputSchema : { type: 'object' },
    annotations: {
      ...(hints.readOnlyHint ? { readOnlyHint: true } : {}),
      // "Consequential" (placing an order): the gate treats it as destructive, so it always asks.
      ...(hints.consequentialHint ? { destructiveHint: true } : {}),
      ...(hints.untrustedContentHint ? { openWorldHint: true } : {}),
    },
  };
}

/** executeTool's JSON string as a CallToolResult: a result object as is, anything else as text. */
function resultOf(text: string): JsonObject {
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: the text itself is the result.
  }
  return resultOfValue(value);
}

function resultOfValue(value: unknown): JsonObject {
  if (isJsonObject(value) && Array.isArray(value.content)) return value;
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}
