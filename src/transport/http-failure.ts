/**
 * Turns failed HTTP exchanges into TransportErrors a person can act on: what happened, at which URL,
 * and what to change. Header values never appear in a message: a server's error page may echo our
 * request headers, so configured values are redacted from every body snippet too.
 */

import { TransportError } from '../protocol/errors.js';
import { isJsonObject, type RequestId } from '../protocol/jsonrpc.js';

const SNIPPET_CHARS = 300;
/** Shorter values are too likely to be ordinary words to redact them everywhere. */
const MIN_SECRET_CHARS = 6;

/** Headers the MCP transports themselves send; a browser server must allow them in CORS. */
export const MCP_REQUEST_HEADERS = [
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  'authorization',
] as const;

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

/** A short, single-line, redacted excerpt of a body for error messages. */
export function snippet(text: string, secrets: readonly string[]): string {
  const flat = redact(text, secrets).replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
}

/** True when the body is a web page rather than an API answer. */
export function isHtml(mediaType: string, body: string): boolean {
  return (
    mediaType === 'text/html' ||
    mediaType === 'application/xhtml+xml' ||
    /^\s*(<!doctype html|<html|<head|<body)/i.test(body)
  );
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

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** A fetch that rejected: the server is down, the name does not resolve, or (browser) CORS refused. */
export function networkFailure(context: FailureContext, error: unknown): TransportError {
  const code = errorCode(error);
  const { url } = context;
  if (code && UNREACHABLE_CODES.has(code)) {
    const message =
      code === 'ECONNREFUSED'
        ? `${url} refused the connection (ECONNREFUSED): is the MCP server running and listening on that port?`
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? `the host of ${url} could not be found (${code}): check the URL for typos`
          : `${url} is unreachable (${code}): check the address and the network`;
    return new TransportError(url, 'unreachable', message);
  }
  // Browsers report CORS refusals and network failures alike, as a bare TypeError; we name both causes.
  const origin = pageOrigin();
  const allowHeaders = [
    ...new Set([...MCP_REQUEST_HEADERS, ...context.headerNames.map((name) => name.toLowerCase())]),
  ].filter((name) => name !== 'accept');
  const mixed =
    pageProtocol() === 'https:' && url.startsWith('http:') && !isLoopbackUrl(url)
      ? ' This page is served over https, so the browser also blocks calls to a plain http server (mixed content): use https.'
      : '';
  const localNetwork =
    isLocalNetworkUrl(url) && origin !== undefined && !isLocalNetworkUrl(origin)
      ? ' The server is on this machine or the local network and the page is not: Chromium lets a public page reach it only from an https page, after the person allows local network access when the browser asks.'
      : '';
  return new TransportError(
    url,
    'cors-or-network',
    `Could not reach ${url}${code ? ` (${code})` : ''}: the server is down or unreachable, or (in a browser) ` +
      `it does not allow this page's origin${origin ? ` ${origin}` : ''} in its CORS settings. ` +
      `If it is running, its responses, including the OPTIONS preflight, must carry ` +
      `Access-Control-Allow-Origin: ${origin ?? "<this page's origin>"}, ` +
      `Access-Control-Allow-Headers: ${allowHeaders.join(', ')}, ` +
      `and Access-Control-Expose-Headers: mcp-session-id.${mixed}${localNetwork}`,
  );
}

/** A non-2xx answer that carried no JSON-RPC answer for our request. */
export function statusFailure(
  context: FailureContext,
  status: number,
  mediaType: string,
  body: string,
): TransportError {
  if (isHtml(mediaType, body)) return htmlPage(context, status, body);
  const rpc = rpcErrorIn(body);
  const detail = rpc
    ? `${snippet(rpc.message, context.secrets)} (MCP error ${rpc.code})`
    : snippet(body, context.secrets);
  return new TransportError(
    context.url,
    'http-status',
    `${context.url} answered HTTP ${status}${detail ? `: ${detail}` : ''}. ${statusAdvice(status)}`,
    status,
    snippet(body, context.secrets),
  );
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

/** A 2xx answer whose Content-Type is not one the exchange allows. */
export function wrongContentType(
  context: FailureContext,
  status: number,
  mediaType: string,
  body: string,
  expected: readonly string[],
): TransportError {
  if (isHtml(mediaType, body)) return htmlPage(context, status, body);
  return new TransportError(
    context.url,
    'wrong-content-type',
    `${context.url} answered HTTP ${status} with ${mediaType ? `Content-Type ${mediaType}` : 'no Content-Type'}, ` +
      `expected ${expected.join(' or ')}: check the URL points at the server's MCP endpoint`,
    status,
    snippet(body, context.secrets),
  );
}

/** A 2xx answer with JSON that is not JSON-RPC (some other API lives at this URL). */
export function notMcp(context: FailureContext, status: number, body: string, why: string): TransportError {
  return new TransportError(
    context.url,
    'not-mcp',
    `${context.url} answered HTTP ${status} with something that is not MCP (${why}): ` +
      `check the URL points at the server's MCP endpoint, often /mcp`,
    status,
    snippet(body, context.secrets),
  );
}

function htmlPage(context: FailureContext, status: number, body: string): TransportError {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  return new TransportError(
    context.url,
    'html-page',
    `${context.url} answered with an HTML page (HTTP ${status}${title ? `, "${snippet(title, context.secrets)}"` : ''}), ` +
      `not MCP: check the URL points at the server's MCP endpoint, often /mcp`,
    status,
    snippet(body, context.secrets),
  );
}

function statusAdvice(status: number): string {
  if (status === 401)
    return "The server wants credentials: add an Authorization header (for example a bearer token) to this server's settings.";
  if (status === 403)
    return "The server refused the request: it may not accept this page's origin, or the credentials lack permission.";
  if (status === 404)
    return "Nothing answers MCP at this URL: check it points at the server's MCP endpoint, often /mcp.";
  if (status === 405) return 'This URL does not accept that HTTP method: check it is the MCP endpoint.';
  if (status === 406 || status === 415)
    return "The server did not accept the request's Accept or Content-Type: it may not speak this MCP transport.";
  if (status === 429) return 'The server is limiting requests: wait a moment and try again.';
  if (status >= 500) return 'The server failed while handling the request: its logs will say why.';
  return 'The server rejected the request.';
}

function errorCode(error: unknown): string | undefined {
  // Node's fetch puts the socket error in `cause`, sometimes an AggregateError (one per address tried).
  const cause = error instanceof Error ? error.cause : undefined;
  for (const candidate of [cause, ...(cause instanceof AggregateError ? cause.errors : [])]) {
    if (isJsonObject(candidate) || candidate instanceof Error) {
      const code = (candidate as { code?: unknown }).code;
      if (typeof code === 'string') return code;
    }
  }
  return undefined;
}

function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}

function pageProtocol(): string | undefined {
  const protocol = (globalThis as { location?: { protocol?: unknown } }).location?.protocol;
  return typeof protocol === 'string' ? protocol : undefined;
}

/** Loopback or private-range hosts: what Chromium's local network access rules protect. */
function isLocalNetworkUrl(url: string): boolean {
  if (isLoopbackUrl(url)) return true;
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    // Not a URL: then not a local network one either.
    return false;
  }
  return (
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^169\.254\./.test(host) ||
    host.endsWith('.local')
  );
}

function isLoopbackUrl(url: string): boolean {
  // Browsers treat loopback hosts as secure contexts, so https pages may call them over http.
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    // Not a URL: then it is not a loopback one either.
  }
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
}
