/**
 * Turns failed HTTP exchanges into TransportErrors a person can act on: what happened, at which URL,
 * and what to change. Header values never appear in a message: a server's error page may echo our
 * request headers, so configured values are redacted from every body snippet too.
 *
 * What a working exchange needs lives here (URL and header checks, media types, JSON-RPC errors in
 * a body; error bodies are read by bounded-body.ts); the messages for failures are in
 * http-failure-messages.ts, loaded at the first failure (explainFailure), so they stay out of the
 * library's eager bundle.
 */

import {
  isJsonObject,
  type RequestId,
  TransportError,
  type TransportFailureCause,
} from '../protocol/index.js';

/** Shorter values are too likely to be ordinary words to redact them everywhere. */
const MIN_SECRET_CHARS = 6;

/** What a failure message may say about the exchange. */
export interface FailureContext {
  /** The URL as shown to people. */
  url: string;
  /** Names of the headers sent (for CORS advice). */
  headerNames: readonly string[];
  /** Header values sent, kept out of every message. */
  secrets: readonly string[];
}

/** Checks an MCP server address: http: or https:, no embedded credentials. Throws 'bad-endpoint'. */
export function parseHttpUrl(input: string | URL): URL {
  const text = String(input);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Say what an MCP address looks like instead of the parser's message.
    throw new TransportError(
      text,
      'bad-endpoint',
      `${text} is not a valid URL: an MCP server address looks like https://example.com/mcp`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TransportError(
      text,
      'bad-endpoint',
      `${text} is not an http: or https: URL: Toolgate reaches MCP servers over HTTP`,
    );
  if (url.username || url.password) {
    // Never echo the password; fetch refuses such URLs anyway.
    const shown = `${url.protocol}//${url.host}${url.pathname}`;
    throw new TransportError(
      shown,
      'bad-endpoint',
      `${shown} carries a user name or password in the URL, which browsers refuse: put credentials in an Authorization header instead`,
    );
  }
  return url;
}

/**
 * Throws a TypeError naming (never showing) the first header HTTP would refuse. Checked up front
 * because fetch's own error quotes the offending value, which may be a secret.
 */
export function assertValidHeaders(headers: Record<string, string>, where: string): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      new Headers([[name, value]]);
    } catch {
      // The Headers error quotes the value, which may be a secret: name the header only.
      throw new TypeError(
        `header "${name}" for ${where} is not a valid HTTP header (names are tokens; values must be ` +
          'Latin-1 without line breaks); its value is not shown',
      );
    }
  }
}

/** The media type of a response, lowercased, without parameters ('' when absent). */
export function mediaTypeOf(response: Response): string {
  const value = response.headers.get('content-type') ?? '';
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}

/** Replaces every sent header value found in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    // "Bearer abc" may come back as just "abc": redact the whole value and each long part of it.
    const parts = [secret, ...secret.split(/\s+/)].filter((part) => part.length >= MIN_SECRET_CHARS);
    for (const part of parts.sort((a, b) => b.length - a.length))
      result = result.split(part).join('[redacted]');
  }
  return result;
}

/** A JSON-RPC error response found in a body. */
export interface BodyRpcError {
  id: RequestId | null | undefined;
  code: number;
  message: string;
  /** The parsed body, to deliver as-is. */
  raw: Record<string, unknown>;
}

/** Finds a JSON-RPC error response in an HTTP body, if the body is one. */
export function rpcErrorIn(body: string): BodyRpcError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    // A body that is not JSON carries no JSON-RPC error.
    return undefined;
  }
  if (!isJsonObject(value) || value.jsonrpc !== '2.0' || !isJsonObject(value.error)) return undefined;
  const { code, message } = value.error;
  if (typeof code !== 'number') return undefined;
  const id = value.id;
  return {
    id: typeof id === 'string' || typeof id === 'number' || id === null ? id : undefined,
    code,
    message: typeof message === 'string' ? message : '(no message)',
    raw: value,
  };
}

/** The server said our legacy session is gone (HTTP 404 to a request carrying Mcp-Session-Id). */
export function sessionExpired(context: FailureContext): TransportError {
  return new TransportError(
    context.url,
    'session-expired',
    `${context.url} no longer knows this MCP session (HTTP 404): a new session must be started`,
    404,
  );
}

/** Longest session id Toolgate accepts. The spec sets no number; real ids are UUIDs or tokens far below it. */
export const MAX_SESSION_ID_CHARS = 1024;

/**
 * True when a legacy session id keeps the rule (visible ASCII 0x21-0x7E, at most 1024 characters);
 * session-rules.ts says why one does not.
 */
export function isUsableSessionId(id: string): boolean {
  return id.length <= MAX_SESSION_ID_CHARS && /^[\x21-\x7e]*$/.test(id);
}

/** The server lost one new session too many in a row: the connection fails for good. */
export function sessionsExhausted(context: FailureContext, label: string, restarts: number): TransportError {
  return new TransportError(
    context.url,
    'http-status',
    `${label} forgot the MCP session again (HTTP 404) after Toolgate started ${restarts} new ` +
      `session${restarts === 1 ? '' : 's'} in a row, so Toolgate stopped and sends it nothing more. The server may be ` +
      `restarting, or run several instances without shared sessions. Reconnect once it is fixed.`,
    404,
  );
}

type FailureMessages = typeof import('./http-failure-messages.js');
let failureMessages: Promise<FailureMessages> | undefined;

/**
 * The error for a failed exchange, worded by http-failure-messages.ts (loaded now, once). When that
 * module cannot be loaded (the page's own server is out of reach too), the error still names the
 * URL, the likely cause and the status, in fewer words, rather than reporting the failed load.
 */
export async function explainFailure(
  context: Pick<FailureContext, 'url'>,
  cause: TransportFailureCause,
  status: number | undefined,
  explain: (messages: FailureMessages) => TransportError,
): Promise<TransportError> {
  failureMessages ??= import('./http-failure-messages.js');
  let messages: FailureMessages;
  try {
    messages = await failureMessages;
  } catch {
    // Not cached: the next failure tries to load the wording again.
    failureMessages = undefined;
    const what =
      cause === 'bad-endpoint'
        ? `${context.url} redirected to an address Toolgate does not follow; use the final URL`
        : status === undefined
          ? `Could not reach ${context.url}: the server is down or unreachable, or (in a browser) its CORS settings refuse this page`
          : `${context.url} answered HTTP ${status}, which is not an MCP answer Toolgate can use`;
    return new TransportError(
      context.url,
      cause,
      `${what} (Toolgate could not load its detailed explanation)`,
      status,
    );
  }
  return explain(messages);
}
