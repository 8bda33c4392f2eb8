/**
 * The wording of failed HTTP exchanges (see http-failure.ts) and of refused redirects (see
 * http-fetch.ts): what happened, at which URL, and what to change; body snippets have the
 * configured header values redacted. Loaded at the first failure through explainFailure.
 */

import { isJsonObject, redactUrl, TransportError } from '../protocol/index.js';
import { type FailureContext, redact, rpcErrorIn } from './http-failure.js';
import { MAX_REDIRECTS, type RedirectScope } from './http-fetch.js';

const SNIPPET_CHARS = 300;

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

/** A redirect to another origin (or to no URL at all): the person's headers stay with the server's origin. */
export function crossOriginRedirect(
  scope: RedirectScope,
  status: number,
  next: URL | undefined,
): TransportError {
  const where = next ? ` (${redactUrl(next.href)}, HTTP ${status})` : ` (HTTP ${status})`;
  return new TransportError(
    scope.shownUrl,
    'bad-endpoint',
    `${scope.shownUrl} redirected to another origin${where}; Toolgate does not follow it so your ` +
      `headers and tokens stay with ${scope.origin}. Use the final URL.`,
    status,
  );
}

/** A redirect whose Location the browser hides (every browser does for a manual redirect). */
export function opaqueRedirect(scope: RedirectScope): TransportError {
  return new TransportError(
    scope.shownUrl,
    'bad-endpoint',
    `${scope.shownUrl} redirected to another address, which the browser does not let Toolgate read; ` +
      `Toolgate does not follow it so your headers and tokens stay with ${scope.origin}. Use the final URL.`,
    0,
  );
}

/** A 301, 302 or 303 that would turn a POST (or DELETE) into a GET. */
export function methodChangingRedirect(
  scope: RedirectScope,
  status: number,
  method: string,
  next: URL,
): TransportError {
  return new TransportError(
    scope.shownUrl,
    'bad-endpoint',
    `${scope.shownUrl} answered HTTP ${status}, a redirect to ${redactUrl(next.href)} that turns a ${method} into ` +
      'a GET, which an MCP endpoint cannot answer; Toolgate does not follow it. Use the final URL.',
    status,
  );
}

/** More same-origin redirects in a row than MAX_REDIRECTS: a loop, most likely. */
export function tooManyRedirects(scope: RedirectScope, status: number, next: URL): TransportError {
  return new TransportError(
    scope.shownUrl,
    'bad-endpoint',
    `${scope.shownUrl} redirected more than ${MAX_REDIRECTS} times (last to ${redactUrl(next.href)}): ` +
      'Toolgate stopped following. Use the final URL.',
    status,
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
