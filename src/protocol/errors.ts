/**
 * Error classes. Two families matter to callers: protocol-level failures (thrown) and tool execution
 * errors (`isError: true` results, returned as results, never thrown). Every class carries enough to
 * tell a person what happened, where, and what to do.
 */

import type { RequestId } from './jsonrpc.js';

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2026-07-28: HTTP headers do not match the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the server requires a client capability the request did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol version is not supported; `data.supported` lists the ones that are. */
  UnsupportedProtocolVersion: -32022,
  /** 2025-11-25: URL-mode elicitation required. */
  UrlElicitationRequired: -32042,
} as const;

/** Error codes that identify a server speaking the modern (2026-07-28+) era. */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/** Base class: every error Toolgate throws is one of these, discriminated by `kind`. */
export abstract class ToolgateError extends Error {
  abstract readonly kind: string;
}

/** The peer answered with a JSON-RPC error. */
export class McpError extends ToolgateError {
  readonly kind = 'protocol';
  constructor(
    readonly code: number,
    readonly serverMessage: string,
    readonly data?: unknown,
    context?: string,
  ) {
    super(`${context ? `${context}: ` : ''}${serverMessage} (MCP error ${code})`);
    this.name = 'McpError';
  }
}

/**
 * Whom a request went to and what it was for, so that its errors can say so: the server's id (or,
 * without one, its label) and, for tools/call, the tool. The engine fills in the server.
 */
export interface RequestSubject {
  server?: string;
  tool?: string | undefined;
}

/** "tools/call for tool 'search'", or the bare method. */
function requestPhrase(method: string, subject?: RequestSubject): string {
  return subject?.tool === undefined ? method : `${method} for tool '${subject.tool}'`;
}

/** "Server 'files'", or "The server" when nobody said which. */
function serverPhrase(subject?: RequestSubject): string {
  return subject?.server === undefined ? 'The server' : `Server '${subject.server}'`;
}

/** " on server 'files'", or nothing. */
function onServer(subject?: RequestSubject): string {
  return subject?.server === undefined ? '' : ` on server '${subject.server}'`;
}

/** "250 ms", "30 s", "10 min": a timeout as a person reads it. */
export function describeDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000 || ms % 60_000 !== 0)
    return `${Number.isInteger(ms / 1_000) ? ms / 1_000 : (ms / 1_000).toFixed(1)} s`;
  return `${ms / 60_000} min`;
}

/** No answer within the timeout. The request was cancelled on the wire. */
export class RequestTimeoutError extends ToolgateError {
  readonly kind = 'timeout';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
    readonly reason: 'idle' | 'total' = 'idle',
    readonly subject?: RequestSubject,
  ) {
    super(
      reason === 'total'
        ? `${requestPhrase(method, subject)}${onServer(subject)} ran past its maximum total time of ` +
            `${describeDuration(timeoutMs)} and was cancelled; raise the maximum total time if the tool needs longer`
        : `${serverPhrase(subject)} did not answer ${requestPhrase(method, subject)} within ` +
            `${describeDuration(timeoutMs)}, so Toolgate cancelled it; raise the timeout if the tool is slow, ` +
            'or check that the server is running',
    );
    this.name = 'RequestTimeoutError';
  }
}

/** The caller aborted (AbortSignal). The request was cancelled on the wire. */
export class RequestCancelledError extends ToolgateError {
  readonly kind = 'cancelled';
  constructor(
    readonly method: string,
    readonly reason?: unknown,
    readonly subject?: RequestSubject,
  ) {
    super(
      `${requestPhrase(method, subject)}${onServer(subject)} was cancelled${typeof reason === 'string' ? `: ${reason}` : ''}`,
    );
    this.name = 'RequestCancelledError';
  }
}

/** The connection closed before an answer arrived. */
export class ConnectionClosedError extends ToolgateError {
  readonly kind = 'closed';
  constructor(readonly detail = 'the connection to the server closed') {
    super(detail);
    this.name = 'ConnectionClosedError';
  }
}

/** A response stream broke and the request could not be recovered. */
export class ResponseLostError extends ToolgateError {
  readonly kind = 'lost';
  constructor(
    readonly method: string,
    readonly requestId: RequestId,
    detail: string,
    readonly subject?: RequestSubject,
  ) {
    super(
      `The answer ${subject?.server === undefined ? '' : `of server '${subject.server}' `}to ` +
        `${requestPhrase(method, subject)} was lost: ${detail}` +
        // The request reached the server: what it did is unknown, and a blind retry may do it twice.
        (subject?.tool === undefined
          ? ''
          : `. The tool may have run all the same: check before you call the tool again.`),
    );
    this.name = 'ResponseLostError';
  }
}

/**
 * The server answered a request with something that is not a valid response (both or neither of
 * result and error, a result that is not an object, a tools/call result without a content array).
 * Nothing from it is used: the request fails at once instead of waiting for a timeout.
 */
export class InvalidResponseError extends ToolgateError {
  readonly kind = 'invalid-response';
  constructor(
    readonly server: string,
    readonly method: string,
    readonly reason: string,
    readonly tool?: string,
  ) {
    super(
      `${serverPhrase({ server })} sent an invalid answer to ${requestPhrase(method, { tool })}: ${reason}. ` +
        'Nothing from it was used; this is a bug in the server (tell its maintainer).',
    );
    this.name = 'InvalidResponseError';
  }
}

/**
 * A failure a transport reported for one request (an answer too large, a stream lost) names the
 * server by its address but not the tool: the transport never knows it. The engine, which does,
 * puts "Server 'files', tools/call for tool 'read': " in front, once, on the same error object (its
 * class and kind stay what callers test for).
 */
export function nameSubject<E extends Error>(error: E, method: string, subject?: RequestSubject): E {
  const named = subject?.server === undefined || error.message.includes(`'${subject.server}'`);
  const toolNamed = subject?.tool === undefined || error.message.includes(`'${subject.tool}'`);
  if (named && toolNamed) return error;
  error.message = `${serverPhrase(subject)}, ${requestPhrase(method, subject)}: ${error.message}`;
  return error;
}

/** The context McpError puts before a server's error message: which server refused what. */
export function refusalContext(method: string, subject?: RequestSubject): string {
  return subject?.server === undefined
    ? `${requestPhrase(method, subject)} failed`
    : `${serverPhrase(subject)} answered ${requestPhrase(method, subject)} with an error`;
}

/** The server did not declare the capability a method needs, so the request is never sent. */
export class CapabilityMissingError extends ToolgateError {
  readonly kind = 'capability-missing';
  constructor(
    readonly server: string,
    readonly capability: string,
    readonly method: string,
  ) {
    super(
      `${server} does not offer ${capability}: it did not declare the "${capability}" capability, so Toolgate does not send ${method}.`,
    );
    this.name = 'CapabilityMissingError';
  }
}

/** Likely causes of a failed HTTP exchange, each with advice a person can follow. */
export type TransportFailureCause =
  | 'cors-or-network'
  | 'unreachable'
  | 'http-status'
  | 'not-mcp'
  | 'html-page'
  | 'wrong-content-type'
  | 'session-expired'
  | 'bad-endpoint'
  /** A 2024-11-05 HTTP+SSE event stream opened but never named the URL to post messages to. */
  | 'no-endpoint'
  | 'origin-refused';

/** The transport could not exchange messages with the server. */
export class TransportError extends ToolgateError {
  readonly kind = 'transport';
  constructor(
    readonly url: string,
    readonly failure: TransportFailureCause,
    message: string,
    readonly status?: number,
    readonly bodySnippet?: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** The server speaks no protocol version Toolgate speaks. */
export class UnsupportedServerError extends ToolgateError {
  readonly kind = 'unsupported';
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedServerError';
  }
}

/** A guard tripped: a runaway cursor loop, too many pages, too many input rounds. */
export class GuardError extends ToolgateError {
  readonly kind = 'guard';
  constructor(message: string) {
    super(message);
    this.name = 'GuardError';
  }
}
