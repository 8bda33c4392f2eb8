/**
 * The accepting side of the postMessage handshake, for MCP servers that live in an iframe, a popup
 * or any window: listens for `mcp-connect`, checks the sender's origin against an exact allow-list,
 * answers on the transferred port and hands the application one MessagePortTransport per client.
 */

import { TransportError } from '../protocol/index.js';
import { MessagePortTransport } from './message-port.js';
import {
  exactOrigin,
  HANDSHAKE_VERSION,
  isConnectMessage,
  isControlLike,
  isJsonRpcLike,
  type ReadyMessage,
  type RefusedMessage,
} from './post-message-protocol.js';

/** Who connected. */
export interface PostMessageClientInfo {
  /** The client's exact origin, as the browser vouches for it. */
  origin: string;
  /** The client's window. */
  source: MessageEventSource | null;
}

/** Options for acceptPostMessageClients. */
export interface AcceptPostMessageOptions {
  /** Exact origins allowed to connect (scheme://host[:port]); no wildcards, no 'null'. */
  allowedOrigins: readonly string[];
  /** Receives each accepted client's transport: wire an engine, then call `transport.start()`. */
  onConnection: (transport: MessagePortTransport, client: PostMessageClientInfo) => void;
  /** Answer only connects naming this channel (lets several servers share one window). */
  channel?: string;
  /** When given, only these windows may connect (e.g. `[window.parent]`); others are dropped and counted. */
  allowedSources?: readonly object[];
  /** Refused or dropped handshakes, and errors thrown by onConnection. */
  onerror?: (error: Error) => void;
  /** How often to check whether a client's window has closed. Default 500 ms. */
  peerCheckIntervalMs?: number;
  /** The window to listen on. Default: globalThis. */
  self?: EventTarget;
}

/** A client window, as far as its `closed` flag goes (readable even across origins). */
interface ClosableWindow {
  readonly closed: boolean;
}

function isClosable(source: unknown): source is ClosableWindow {
  return typeof (source as { closed?: unknown } | null)?.closed === 'boolean';
}

/** A running listener: counters for what it turned away, its live connections, and close(). */
export class PostMessageServer {
  /** Toolgate-shaped messages ignored: malformed connects, JSON-RPC or control traffic on the window, strangers. */
  droppedMessages = 0;
  /** Connects answered with `mcp-refused` (origin not allowed, unknown handshake version). */
  refusedConnections = 0;
  /** Open client connections. */
  readonly connections = new Set<MessagePortTransport>();

  private readonly allowed: ReadonlySet<string>;
  private readonly self: EventTarget;
  private readonly clientWindows = new Map<MessagePortTransport, ClosableWindow>();
  private poll: ReturnType<typeof setInterval> | undefined;
  private listening = true;

  constructor(private readonly options: AcceptPostMessageOptions) {
    if (options.allowedOrigins.length === 0)
      throw new TypeError('acceptPostMessageClients needs at least one allowed origin');
    this.allowed = new Set(options.allowedOrigins.map((origin) => exactOrigin(origin, 'allowed origin')));
    const self = options.self ?? globalThis;
    if (typeof (self as { addEventListener?: unknown }).addEventListener !== 'function')
      throw new TypeError('acceptPostMessageClients needs a window to listen on');
    this.self = self as EventTarget;
    this.self.addEventListener('message', this.receive as EventListener);
    this.self.addEventListener('pagehide', this.pageHidden);
  }

  /** Stops listening and closes every connection (each client is told goodbye). */
  close(): Promise<void> {
    this.listening = false;
    this.self.removeEventListener('message', this.receive as EventListener);
    this.self.removeEventListener('pagehide', this.pageHidden);
    for (const transport of [...this.connections]) transport.end('local');
    return Promise.resolve();
  }

  private readonly receive = (event: MessageEvent): void => {
    const data: unknown = event.data;
    // The host page may use postMessage for its own purposes: only Toolgate-shaped traffic concerns us.
    if (!isJsonRpcLike(data) && !isControlLike(data)) return;
    const from = event.origin || 'an unknown origin';
    if (!isConnectMessage(data)) {
      this.drop(
        from,
        'only a well-formed mcp-connect travels on the window; MCP traffic belongs on the port',
      );
      return;
    }
    // Exact match, undefined included: a connect for another channel is another listener's business.
    if (data.channel !== this.options.channel) return;
    const port = event.ports[0];
    if (!port) {
      this.drop(from, 'mcp-connect arrived without a MessagePort');
      return;
    }
    const sources = this.options.allowedSources;
    if (sources && !(event.source && sources.includes(event.source))) {
      port.close();
      this.drop(from, 'it came from a window this server does not expect');
      return;
    }
    if (!this.allowed.has(event.origin)) {
      this.refuse(port, from, `origin ${from} is not on this server's allow-list`);
      return;
    }
    if (data.version !== HANDSHAKE_VERSION) {
      this.refuse(
        port,
        from,
        `handshake version ${data.version} is not supported; this server speaks version ${HANDSHAKE_VERSION}`,
      );
      return;
    }
    this.accept(port, event);
  };

  private accept(port: MessagePort, event: MessageEvent): void {
    const transport = new MessagePortTransport(port, {
      label: `postMessage client ${event.origin}`,
      peer: event.origin,
      onended: () => this.forget(transport),
    });
    this.connections.add(transport);
    if (isClosable(event.source)) this.watch(transport, event.source);
    const ready: ReadyMessage = { toolgate: 'mcp-ready', version: HANDSHAKE_VERSION };
    port.postMessage(ready);
    try {
      this.options.onConnection(transport, { origin: event.origin, source: event.source });
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Polls the client window's `closed` flag: a client that vanishes without its pagehide goodbye
   * (a crash, a killed tab) is noticed here, because Chromium 156 fires MessagePort 'close' only
   * behind the MessagePortCloseEvent feature flag.
   */
  private watch(transport: MessagePortTransport, client: ClosableWindow): void {
    this.clientWindows.set(transport, client);
    this.poll ??= setInterval(() => {
      for (const [connection, window] of [...this.clientWindows])
        if (window.closed) connection.end('peer-window-closed');
    }, this.options.peerCheckIntervalMs ?? 500);
  }

  private forget(transport: MessagePortTransport): void {
    this.connections.delete(transport);
    this.clientWindows.delete(transport);
    if (this.clientWindows.size === 0 && this.poll !== undefined) {
      clearInterval(this.poll);
      this.poll = undefined;
    }
  }

  private refuse(port: MessagePort, from: string, reason: string): void {
    this.refusedConnections++;
    const refused: RefusedMessage = { toolgate: 'mcp-refused', reason };
    // Refusing explicitly lets the client fail at once with this reason instead of timing out.
    port.postMessage(refused);
    port.close();
    this.report(new TransportError(from, 'origin-refused', `refused a postMessage client: ${reason}`));
  }

  private drop(from: string, why: string): void {
    this.droppedMessages++;
    this.report(new TransportError(from, 'origin-refused', `ignored a message from ${from}: ${why}`));
  }

  private report(error: Error): void {
    if (this.listening) this.options.onerror?.(error);
  }

  private readonly pageHidden = (): void => {
    // Keep listening: a page restored from the back/forward cache can take new connections.
    for (const transport of [...this.connections]) transport.end('pagehide');
  };
}

/** Starts accepting Toolgate postMessage clients from the allowed origins; returns the running listener. */
export function acceptPostMessageClients(options: AcceptPostMessageOptions): PostMessageServer {
  return new PostMessageServer(options);
}
