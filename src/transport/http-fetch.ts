/**
 * Where the HTTP transports may send the person's headers and tokens: the checks on a server URL
 * before anything is sent, and the redirect policy of every request.
 *
 * - Plain http only to this machine (localhost, 127.0.0.0/8, [::1]); anything else needs https,
 *   or credentials would cross the network in clear.
 * - Every request uses `redirect: 'manual'`. A browser's own redirect handling re-sends custom
 *   headers (API keys) to wherever the server points, other origins included. Same-origin
 *   redirects are followed here, by re-issuing the request ourselves, only where the Location is
 *   readable (Node); a cross-origin redirect, or an opaque one (browsers, workers and extensions
 *   included, hide the Location of a manual redirect, so nothing is followed there), fails with an
 *   error saying why (worded in http-failure-messages.ts, loaded at the first refusal).
 */

import { TransportError } from '../protocol/index.js';
import { discardBody } from './bounded-body.js';
import { explainFailure, parseHttpUrl } from './http-failure.js';

/** Same-origin redirects followed for one request before giving up (a loop, most likely). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** These keep the method and body; 301, 302 and 303 turn a POST into a GET (Fetch standard). */
const METHOD_PRESERVING = new Set([307, 308]);

/**
 * Checks a configured MCP server address and returns it parsed. Throws a 'bad-endpoint'
 * TransportError (with secrets in the URL hidden by `redactUrl`, protocol's rule, which the caller
 * loaded if the address may carry one) for an invalid URL, a scheme other than http(s), user info in
 * the URL, or plain http to a host other than this machine.
 */
export function checkServerUrl(input: string | URL, redactUrl: (text: string) => string): URL {
  const text = String(input);
  const shown = redactUrl(text);
  if (!parseable(text))
    throw new TransportError(
      shown,
      'bad-endpoint',
      `${shown} is not a valid URL: an MCP server address looks like https://example.com/mcp`,
    );
  // Scheme and user-info checks (its messages never echo a password).
  const url = parseHttpUrl(text);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    const secure = redactUrl(`https:${url.href.slice('http:'.length)}`);
    throw new TransportError(
      shown,
      'bad-endpoint',
      `${shown} uses plain http to another machine: your headers and tokens would cross the network ` +
        `unencrypted. Toolgate allows http only for this machine (localhost, 127.0.0.0/8, [::1]); ` +
        `use https (${secure}).`,
    );
  }
  return url;
}

/** localhost, 127.0.0.0/8 or [::1], as URL.hostname spells them (IPv4 already normalized). */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** What guardedFetch needs to know about the server it talks to. */
export interface RedirectScope {
  /** The configured server URL as shown to people (secrets redacted). */
  shownUrl: string;
  /** The only origin a redirect may lead to. */
  origin: string;
}

/**
 * fetch with `redirect: 'manual'`: same-origin redirects are followed (same method, headers, body
 * and signal; up to MAX_REDIRECTS), anything else rejects with a 'bad-endpoint' TransportError.
 * Failures of `fetchFn` itself (network, abort) reject as they are, for the caller to explain.
 */
export async function guardedFetch(
  fetchFn: typeof fetch,
  url: URL,
  init: RequestInit,
  scope: RedirectScope,
): Promise<Response> {
  let target = url;
  for (let hops = 0; ; hops++) {
    const response = await fetchFn(target, { ...init, redirect: 'manual' });
    if (response.type === 'opaqueredirect')
      throw await refusal(scope, 0, (messages) => messages.opaqueRedirect(scope));
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    const location = response.headers.get('location');
    // A 3xx without a Location goes nowhere: the caller reports it like any other status.
    if (location === null) return response;
    await discardBody(response);
    const { status } = response;
    const next = parseable(location, target);
    if (!next || next.origin !== scope.origin)
      throw await refusal(scope, status, (messages) => messages.crossOriginRedirect(scope, status, next));
    const method = (init.method ?? 'GET').toUpperCase();
    if (!METHOD_PRESERVING.has(status) && method !== 'GET')
      throw await refusal(scope, status, (messages) =>
        messages.methodChangingRedirect(scope, status, method, next),
      );
    if (hops >= MAX_REDIRECTS)
      throw await refusal(scope, status, (messages) => messages.tooManyRedirects(scope, status, next));
    target = next;
  }
}

/** The URL, or undefined when it does not parse (URL.canParse is missing in older browsers). */
function parseable(text: string, base?: URL): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    // Not a URL: the caller refuses it with its own message.
    return undefined;
  }
}

/** A refused redirect, worded by http-failure-messages.ts (loaded at the first failure: explainFailure). */
function refusal(
  scope: RedirectScope,
  status: number,
  explain: Parameters<typeof explainFailure>[3],
): Promise<TransportError> {
  return explainFailure({ url: scope.shownUrl }, 'bad-endpoint', status, explain);
}
