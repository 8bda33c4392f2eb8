/**
 * The Toolgate postMessage handshake: message shapes, type guards and origin rules shared by the
 * client (post-message.ts), the accepting side (post-message-server.ts) and the port transport.
 *
 * 1. The client creates a MessageChannel and posts `mcp-connect` to the peer window at its exact
 *    origin, transferring one port.
 * 2. The server checks `event.origin` against its allow-list and answers on that port: `mcp-ready`,
 *    or `mcp-refused` with a reason so the client fails fast instead of timing out.
 * 3. Both sides then exchange JSON-RPC objects on the port; `mcp-goodbye` on the port ends it.
 */

/** The handshake version this code speaks. */
export const HANDSHAKE_VERSION = 1;

/** Client → server, on the window, with a MessagePort transferred. */
interface ConnectMessage {
  toolgate: 'mcp-connect';
  version: number;
  /** Lets several servers share one window: a server answers only connects naming its channel. */
  channel?: string;
}

/** Server → client, on the port: the channel is open. */
export interface ReadyMessage {
  toolgate: 'mcp-ready';
  version: number;
}

/** Server → client, on the port: this client may not connect. */
export interface RefusedMessage {
  toolgate: 'mcp-refused';
  reason: string;
}

/** Either side, on the port: this side is going away (pagehide, close()). */
export interface GoodbyeMessage {
  toolgate: 'mcp-goodbye';
}

function tagOf(value: unknown): unknown {
  // JSON-RPC traffic carries "jsonrpc"; a control message never does, so a server cannot smuggle a
  // goodbye inside a response by adding a "toolgate" field.
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'jsonrpc' in value)
    return undefined;
  return (value as { toolgate?: unknown }).toolgate;
}

/** True for a well-formed `mcp-connect` (any version: the server answers unknown ones with a refusal). */
export function isConnectMessage(value: unknown): value is ConnectMessage {
  if (tagOf(value) !== 'mcp-connect') return false;
  const { version, channel } = value as Record<string, unknown>;
  return typeof version === 'number' && (channel === undefined || typeof channel === 'string');
}

/** True for a well-formed `mcp-ready`. */
export function isReadyMessage(value: unknown): value is ReadyMessage {
  return tagOf(value) === 'mcp-ready' && typeof (value as Record<string, unknown>).version === 'number';
}

/** True for a well-formed `mcp-refused`. */
export function isRefusedMessage(value: unknown): value is RefusedMessage {
  return tagOf(value) === 'mcp-refused' && typeof (value as Record<string, unknown>).reason === 'string';
}

/** True for `mcp-goodbye`. */
export function isGoodbyeMessage(value: unknown): value is GoodbyeMessage {
  return tagOf(value) === 'mcp-goodbye';
}

/** True for anything tagged as Toolgate control traffic, well-formed or not. */
export function isControlLike(value: unknown): boolean {
  return typeof tagOf(value) === 'string';
}

/** True for anything shaped like JSON-RPC (valid or not): traffic that belongs on the port. */
export function isJsonRpcLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'jsonrpc' in value;
}

/** Builds the connect message. */
export function connectMessage(channel?: string): ConnectMessage {
  return { toolgate: 'mcp-connect', version: HANDSHAKE_VERSION, ...(channel ? { channel } : {}) };
}

/** The opaque origin as `MessageEvent.origin` spells it. */
export const OPAQUE_ORIGIN = 'null';

/**
 * Checks that `origin` is one exact serialized origin (scheme://host[:port], no path, no wildcard)
 * and returns it. Throws a TypeError a developer can act on otherwise. `'*'` and `'null'` are
 * refused: `'*'` would send to anyone, and `'null'` matches every sandboxed frame on the web.
 */
export function exactOrigin(origin: string, what = 'origin'): string {
  if (origin === '*' || origin === OPAQUE_ORIGIN || origin.includes('*'))
    throw new TypeError(
      `${what} ${JSON.stringify(origin)} is not allowed: give one exact origin such as https://app.example`,
    );
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new TypeError(`${what} ${JSON.stringify(origin)} is not an origin such as https://app.example`);
  }
  // Node's URL gives non-special schemes (chrome-extension:) an opaque origin where Chromium does not,
  // so scheme://host is judged by its parts.
  const spelled =
    parsed.origin === OPAQUE_ORIGIN && parsed.host ? `${parsed.protocol}//${parsed.host}` : parsed.origin;
  if (spelled === OPAQUE_ORIGIN || spelled !== origin)
    throw new TypeError(
      `${what} ${JSON.stringify(origin)} is not an exact origin; did you mean ${JSON.stringify(spelled)}? (scheme, host and port only, no path or trailing slash)`,
    );
  return origin;
}
