/**
 * `window.toolgate`: the small API a web page uses to ask for the person's MCP tools (a content
 * script in the page's own world). Everything it can do goes through the bridge to the extension,
 * which decides by the page's real origin; this script only shapes requests and answers.
 *
 * It exists only on sites the person turned on. A page open when its site is turned on gets it
 * late, and hears a `toolgate:ready` event on window when it arrives.
 *
 *   const tools = await toolgate.requestAccess();   // asks the person the first time
 *   const result = await toolgate.callTool(tools[0].serverId, tools[0].name, { a: 2, b: 3 });
 */

import type {
  CallToolResult,
  GetPromptResult,
  JsonObject,
  ReadResourceResult,
} from '../src/protocol/index.js';
import { type AccessEvent, BRIDGE_TAG, type BridgeReply, PAGE_TAG, type SiteTool } from './page-protocol.js';

export interface ToolgatePageApi {
  /** Asks the person (the first time) which of their tools this site may use; resolves with them. */
  requestAccess(): Promise<SiteTool[]>;
  /** The tools granted to this site that are available now. */
  listTools(): Promise<SiteTool[]>;
  /** Calls a granted tool. The person approves it in Toolgate; aborting the signal cancels it. */
  callTool(
    serverId: string,
    toolName: string,
    args?: JsonObject,
    options?: { signal?: AbortSignal },
  ): Promise<CallToolResult>;
  /**
   * Reads a resource of a server whose tools this site was granted. The person is asked each time;
   * aborting the signal cancels it.
   */
  readResource(
    serverId: string,
    uri: string,
    options?: { signal?: AbortSignal },
  ): Promise<ReadResourceResult>;
  /** Gets a prompt of a server whose tools this site was granted, asked as a read is. */
  getPrompt(
    serverId: string,
    name: string,
    args?: Record<string, string>,
    options?: { signal?: AbortSignal },
  ): Promise<GetPromptResult>;
  /** Called when the person grants, changes or revokes this site's access. */
  onAccessChange(listener: (access: { granted: boolean; tools: SiteTool[] }) => void): () => void;
}

declare global {
  interface Window {
    toolgate?: ToolgatePageApi;
  }
}

/**
 * A fresh request id. crypto.randomUUID exists only in secure contexts, and a plain-http site
 * the person turned on is not one; getRandomValues works everywhere.
 */
function newRequestId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

function install(): ToolgatePageApi {
  const origin = location.origin;
  const waiting = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const accessListeners = new Set<(access: { granted: boolean; tools: SiteTool[] }) => void>();

  const failure = (message: string, kind: string) => Object.assign(new Error(message), { name: kind, kind });

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== window || event.origin !== origin) return;
    const data = event.data as { tag?: unknown; message?: BridgeReply | AccessEvent; disconnected?: boolean };
    if (data?.tag !== BRIDGE_TAG) return;
    if (data.disconnected) {
      for (const [, pending] of waiting)
        pending.reject(
          failure(
            'Toolgate stopped answering this page (its background worker restarted, or this site was turned off); a waiting request was interrupted. Try again.',
            'interrupted',
          ),
        );
      waiting.clear();
      return;
    }
    const message = data.message;
    if (!message) return;
    if ('event' in message) {
      for (const listener of accessListeners) listener({ granted: message.granted, tools: message.tools });
      return;
    }
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.ok) pending.resolve(message.value);
    else pending.reject(failure(message.error.message, message.error.kind ?? 'Error'));
  });

  function send<T>(request: Record<string, unknown>, id: string = newRequestId()): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      window.postMessage({ tag: PAGE_TAG, request: { ...request, id } }, origin);
    });
  }

  /** Sends a request the page may cancel: an abort sends `cancel` with the request's id. */
  function cancellable<T>(request: Record<string, unknown>, signal: AbortSignal | undefined): Promise<T> {
    const id = newRequestId();
    if (signal?.aborted)
      return Promise.reject(failure('The call was aborted before it started.', 'cancelled'));
    signal?.addEventListener(
      'abort',
      () => void send({ method: 'cancel', callId: id }).catch(() => undefined),
      {
        once: true,
      },
    );
    return send<T>(request, id);
  }

  return Object.freeze({
    requestAccess: () => send<SiteTool[]>({ method: 'requestAccess' }),
    listTools: () => send<SiteTool[]>({ method: 'listTools' }),
    callTool(
      serverId: string,
      toolName: string,
      args: JsonObject = {},
      options: { signal?: AbortSignal } = {},
    ) {
      return cancellable<CallToolResult>(
        { method: 'callTool', serverId, toolName, arguments: args },
        options.signal,
      );
    },
    readResource(serverId: string, uri: string, options: { signal?: AbortSignal } = {}) {
      return cancellable<ReadResourceResult>({ method: 'readResource', serverId, uri }, options.signal);
    },
    getPrompt(
      serverId: string,
      name: string,
      args: Record<string, string> = {},
      options: { signal?: AbortSignal } = {},
    ) {
      return cancellable<GetPromptResult>(
        { method: 'getPrompt', serverId, name, arguments: args },
        options.signal,
      );
    },
    onAccessChange(listener: (access: { granted: boolean; tools: SiteTool[] }) => void) {
      accessListeners.add(listener);
      return () => accessListeners.delete(listener);
    },
  });
}

// Registered and injected copies can both reach one document: the first one installs the API.
if (!window.toolgate && (location.protocol === 'https:' || location.protocol === 'http:')) {
  Object.defineProperty(window, 'toolgate', {
    value: install(),
    enumerable: false,
    configurable: false,
    writable: false,
  });
  window.dispatchEvent(new Event('toolgate:ready'));
}
