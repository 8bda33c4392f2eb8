/**
 * One MCP server address as both HTTP transports (streamable-http.ts, http-sse.ts) use it: the URL
 * checked before any header is stored, the person's headers checked and kept, what failure messages
 * may say (and must hide), requests through the redirect policy with network failures explained,
 * and the check that a GET opened an event stream. The transports keep only their protocol.
 * Failures are worded through explainFailure, so the wording loads at the first failure only.
 */

import { forwardPersonWait, mayCarryUrlSecrets, TransportError } from '../protocol/index.js';
import { readBoundedText } from './bounded-body.js';
import {
  assertValidHeaders,
  explainFailure,
  type FailureContext,
  mediaTypeOf,
  redact,
} from './http-failure.js';
import { checkServerUrl, guardedFetch, type RedirectScope } from './http-fetch.js';

/** What both HTTP transports are told about their server. */
export interface HttpEndpointOptions {
  /** Sent with every request (Authorization, API keys). Values never appear in errors. */
  headers?: Record<string, string> | undefined;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch | undefined;
  /** Name for messages; defaults to the URL with its secrets (`?api_key=`, user info) hidden. */
  label?: string | undefined;
}

/**
 * The URL secret rule (protocol's url-secrets.ts) as an endpoint uses it. The transports that
 * import it statically pass it; connect() passes none for an address that cannot carry a secret
 * (mayCarryUrlSecrets), so a plain call never loads the rule.
 */
export interface UrlRule {
  redactUrl(text: string): string;
  redactUrlsInText(text: string): string;
  secretsInUrl(url: URL): string[];
}

/** For an address without `@` or `=`: redactUrl would return it unchanged, and it holds no secret. */
const PLAIN_ADDRESS: Pick<UrlRule, 'redactUrl' | 'secretsInUrl'> = {
  redactUrl: (text) => text,
  secretsInUrl: () => [],
};

/** A request's own abort controller, tied to its caller's signal and to the transport's close(). */
export interface RequestLine {
  controller: AbortController;
  /** Unties it: call once the request is over. */
  release: () => void;
}

export class HttpEndpoint {
  readonly url: URL;
  readonly label: string;
  /** Where redirects may lead, and the URL as messages show it (secrets hidden). */
  readonly scope: RedirectScope;
  /** The configured headers, checked. */
  readonly headers: Readonly<Record<string, string>>;
  /** The URL secret rule the endpoint was given; undefined for an address that cannot carry a secret. */
  readonly rule: UrlRule | undefined;
  /** Secret values in the URL itself, kept out of messages like header values. */
  private readonly urlSecrets: readonly string[];
  private readonly fetchFn: typeof fetch;

  /** `rule` may be left out only for an address that cannot carry a secret (mayCarryUrlSecrets). */
  constructor(url: string | URL, options: HttpEndpointOptions = {}, rule?: UrlRule) {
    if (!rule && mayCarryUrlSecrets(String(url)))
      throw new TypeError('an address that may carry a secret needs the URL secret rule');
    this.rule = rule;
    const { redactUrl, secretsInUrl } = rule ?? PLAIN_ADDRESS;
    // Plain http only to this machine; user info refused: checked before any header is stored.
    this.url = checkServerUrl(url, redactUrl);
    this.scope = { shownUrl: redactUrl(this.url.href), origin: this.url.origin };
    this.urlSecrets = secretsInUrl(this.url);
    this.label = options.label ?? redactUrl(String(url));
    this.headers = { ...options.headers };
    assertValidHeaders(this.headers, this.label);
    // Looked up per call, unbound: browsers throw "Illegal invocation" for a detached window.fetch.
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** What a failure message may say: the URL shown, the header names, and every value to hide. */
  context(extra?: Record<string, string>, moreSecrets: readonly string[] = []): FailureContext {
    const sent = { ...this.headers, ...extra };
    return {
      url: this.scope.shownUrl,
      headerNames: Object.keys(sent),
      secrets: [...Object.values(sent), ...this.urlSecrets, ...moreSecrets],
    };
  }

  /**
   * Another layer's error message without our header values and URL secrets; URLs in it are
   * masked by `redactUrlsInText` (protocol's rule: the lazy stream modules import it, streamable-http-core.ts
   * loads it at such a failure).
   */
  redactMessage(
    message: string,
    redactUrlsInText: (text: string) => string,
    context: FailureContext = this.context(),
  ): string {
    return redactUrlsInText(redact(message, context.secrets));
  }

  /** The configured headers with a request's own (theirs win), as Headers. */
  headersWith(extra?: Record<string, string>): Headers {
    return new Headers({ ...this.headers, ...extra });
  }

  /**
   * Sends one request under the redirect policy (to `target`, by default the server URL).
   * Undefined when `signal` aborted it; a refused redirect rejects as it is, any other failure as a
   * TransportError naming the likely causes.
   */
  async fetch(
    init: RequestInit & { signal: AbortSignal },
    context: FailureContext,
    target: URL = this.url,
  ): Promise<Response | undefined> {
    try {
      return await guardedFetch(this.fetchFn, target, init, this.scope);
    } catch (error) {
      if (init.signal.aborted) return undefined;
      // A refused redirect already says what happened; anything else is the network's failure.
      if (error instanceof TransportError) throw error;
      throw await explainFailure(context, 'cors-or-network', undefined, (messages) =>
        messages.networkFailure(context, error),
      );
    }
  }

  /**
   * The event stream a GET opened; anything else (a failed status, another content type) throws
   * the failure, explained from the first bytes of its body.
   */
  async eventStream(response: Response, context: FailureContext): Promise<ReadableStream<Uint8Array>> {
    if (!response.ok) throw await this.statusFailure(response, context);
    const mediaType = mediaTypeOf(response);
    if (mediaType !== 'text/event-stream' || !response.body)
      throw await this.wrongContentType(response, context, mediaType, ['text/event-stream']);
    return response.body;
  }

  /** The error for a non-2xx answer, explained from `body` (by default the body's first bytes). */
  async statusFailure(response: Response, context: FailureContext, body?: string): Promise<TransportError> {
    const text = body ?? (await readBoundedText(response));
    return explainFailure(context, 'http-status', response.status, (messages) =>
      messages.statusFailure(context, response.status, mediaTypeOf(response), text),
    );
  }

  /** The error for an answer whose Content-Type is not one of `expected`, explained from its first bytes. */
  async wrongContentType(
    response: Response,
    context: FailureContext,
    mediaType: string,
    expected: readonly string[],
  ): Promise<TransportError> {
    const body = await readBoundedText(response);
    return explainFailure(context, 'wrong-content-type', response.status, (messages) =>
      messages.wrongContentType(context, response.status, mediaType, body, expected),
    );
  }
}

/**
 * A request's own abort controller: aborted when the caller's `signal` aborts (then `onAbort` runs
 * too), tracked in `live` so close() can abort it. Undefined when `signal` has already aborted.
 */
export function openRequestLine(
  signal: AbortSignal | undefined,
  live: Set<AbortController>,
  onAbort?: () => void,
): RequestLine | undefined {
  if (signal?.aborted) return undefined;
  const controller = new AbortController();
  // A sign-in that waits for the person, reported on this signal by the fetch, reaches the engine.
  forwardPersonWait(signal, controller.signal);
  const abort = () => {
    controller.abort(signal?.reason);
    onAbort?.();
  };
  signal?.addEventListener('abort', abort, { once: true });
  live.add(controller);
  return {
    controller,
    release: () => {
      signal?.removeEventListener('abort', abort);
      live.delete(controller);
    },
  };
}
