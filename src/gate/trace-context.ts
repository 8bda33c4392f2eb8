/**
 * W3C Trace Context for tool calls. The 2026-07-28 revision reserves `traceparent` and `tracestate`
 * in `_meta` for OpenTelemetry propagation, and the OpenTelemetry MCP conventions use the same place
 * for every revision, so a call carries them in both eras. The host either hands its own context (its span is the call's parent
 * on the server) or asks Toolgate to start a trace. A host's traceparent is passed through as
 * given: Toolgate exports log records, not spans, so a child span id of its own would leave the
 * server's span pointing at a parent no backend ever receives.
 */

import { type JsonObject, ToolgateError } from '../protocol/index.js';

/** A context the host hands Toolgate for one call. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

/** What a caller asks for: its own context, or `'start'` for a new sampled trace. */
export type TraceRequest = TraceContext | 'start';

/** The context a call carries, as sent and as recorded in the audit log. */
export interface CallTrace {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits: the span the server's span hangs under. */
  spanId: string;
  sampled: boolean;
  traceparent: string;
  tracestate?: string;
}

/** The host's trace context is not W3C Trace Context: nothing was sent. */
export class InvalidTraceContextError extends ToolgateError {
  readonly kind = 'invalid-trace-context';
  constructor(
    readonly serverId: string,
    readonly toolName: string,
    readonly problem: string,
  ) {
    super(
      `${toolName} on ${serverId} was not called: the host's trace context is not valid W3C Trace Context (${problem}). Pass a traceparent like 00-<32 hex>-<16 hex>-01, or ask Toolgate to start a trace.`,
    );
    this.name = 'InvalidTraceContextError';
  }
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ALL_ZERO = /^0+$/;

/** Parses a version-00 traceparent; returns why it is invalid as a string. */
export function parseTraceparent(value: string): { traceId: string; spanId: string; flags: number } | string {
  if (typeof value !== 'string') return 'traceparent must be a string';
  const match = TRACEPARENT.exec(value);
  if (!match) {
    if (!value.startsWith('00-')) return `version "${value.slice(0, 2)}" is not 00`;
    return 'traceparent must be 00-<32 lowercase hex>-<16 lowercase hex>-<2 lowercase hex>';
  }
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  if (ALL_ZERO.test(traceId)) return 'the trace id is all zeros';
  if (ALL_ZERO.test(spanId)) return 'the parent span id is all zeros';
  return { traceId, spanId, flags: Number.parseInt(flags, 16) };
}

/** Key: lowercase simple or tenant@system form (W3C tracestate). */
const STATE_KEY = /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})$/;
/** Value: printable ASCII without ',' and '=', not ending in a space. */
const STATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** Why a tracestate is invalid, or undefined when it is fine. */
export function tracestateProblem(value: string): string | undefined {
  if (typeof value !== 'string') return 'tracestate must be a string';
  if (value.length > 512) return 'tracestate is longer than 512 characters';
  const members = value.split(',').map((member) => member.trim());
  if (members.filter(Boolean).length > 32) return 'tracestate has more than 32 members';
  for (const member of members) {
    if (member === '') continue;
    const at = member.indexOf('=');
    if (at <= 0 || !STATE_KEY.test(member.slice(0, at)) || !STATE_VALUE.test(member.slice(at + 1)))
      return `tracestate member "${member.slice(0, 40)}" is not key=value`;
  }
  return undefined;
}

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0');
  // All zeros is invalid and astronomically unlikely: draw again rather than send it.
  return ALL_ZERO.test(hex) ? randomHex(bytes) : hex;
}

/** A new sampled trace with random ids. */
export function startTrace(): CallTrace {
  const traceId = randomHex(16);
  const spanId = randomHex(8);
  return { traceId, spanId, sampled: true, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The context for one call, checked; throws InvalidTraceContextError for a malformed host context. */
export function traceFor(request: TraceRequest, serverId: string, toolName: string): CallTrace {
  if (request === 'start') return startTrace();
  const parsed = parseTraceparent(request.traceparent);
  if (typeof parsed === 'string') throw new InvalidTraceContextError(serverId, toolName, parsed);
  if (request.tracestate !== undefined) {
    const problem = tracestateProblem(request.tracestate);
    if (problem) throw new InvalidTraceContextError(serverId, toolName, problem);
  }
  return {
    traceId: parsed.traceId,
    spanId: parsed.spanId,
    sampled: (parsed.flags & 1) === 1,
    traceparent: request.traceparent,
    ...(request.tracestate ? { tracestate: request.tracestate } : {}),
  };
}

/** The `_meta` members a call carries for its trace. */
export function traceMeta(trace: CallTrace): JsonObject {
  return { traceparent: trace.traceparent, ...(trace.tracestate ? { tracestate: trace.tracestate } : {}) };
}
