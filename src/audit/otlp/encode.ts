/**
 * Audit chain events as OTLP log records, JSON encoding (OTLP/HTTP, `application/json`): ids as hex,
 * 64-bit integers as decimal strings, enums as numbers, lowerCamelCase field names, as the OTLP
 * specification's JSON mapping says. Attribute names follow the OpenTelemetry semantic conventions
 * for MCP and GenAI tool calls where they define one (mcp.method.name, gen_ai.tool.name,
 * gen_ai.operation.name, server.address, error.type, log.record.uid); the rest are toolgate.*.
 *
 * Nothing here redacts: events are exported as the log stored them, after the log's redaction.
 */

import type { Caller, RecordedTrace } from '../../gate/index.js';
import type { AnchoredHead, AnchorKey } from '../anchor.js';
import type { ChainEvent } from '../chain.js';

/** A value of a stored record (JSON). */
type JsonValue = unknown;

/** OTLP AnyValue, JSON form. */
type OtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: OtlpAnyValue[] } }
  | { kvlistValue: { values: OtlpKeyValue[] } }
  | Record<string, never>;

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

/** OTLP LogRecord, JSON form (the fields Toolgate sets). */
interface OtlpLogRecord {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  severityNumber: number;
  severityText: string;
  body: OtlpAnyValue;
  attributes: OtlpKeyValue[];
  traceId?: string;
  spanId?: string;
  flags?: number;
}

/** What the final, resent and interrupted events do not repeat: known from the call's first event. */
export interface CallContext {
  serverId: string;
  toolName: string;
  caller?: Caller;
  trace?: RecordedTrace;
}

/** OTLP SeverityNumber values used here. */
const SEVERITY = { INFO: 9, WARN: 13, ERROR: 17 } as const;

/** Outcomes that mean the call did not do what was asked, and those that mean something broke. */
const WARN_OUTCOMES = new Set([
  'tool-error',
  'denied',
  'cancelled',
  'invalid-arguments',
  'invalid-output',
  'interrupted',
]);
const ERROR_OUTCOMES = new Set(['protocol-error', 'timed-out']);

/** Any JSON value as an OTLP AnyValue. */
export function anyValue(value: JsonValue | undefined, depth = 0): OtlpAnyValue {
  if (value === null || value === undefined) return {};
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number')
    return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  // Records are bounded by the log's own limits; this only keeps a hostile nesting from recursing on.
  if (depth > 64) return { stringValue: '[too deep to export]' };
  if (Array.isArray(value)) return { arrayValue: { values: value.map((item) => anyValue(item, depth + 1)) } };
  if (typeof value !== 'object') return { stringValue: String(value) };
  return {
    kvlistValue: {
      values: Object.entries(value)
        .filter(([, child]) => child !== undefined)
        .map(([key, child]) => ({ key, value: anyValue(child, depth + 1) })),
    },
  };
}

/** Attributes from plain values; undefined ones are left out. */
function attributes(values: Record<string, string | number | boolean | undefined>): OtlpKeyValue[] {
  const list: OtlpKeyValue[] = [];
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) list.push({ key, value: anyValue(value) });
  return list;
}

/** What a call's first event (pending or refusal) tells about the call, for its later events. */
export function contextOf(event: ChainEvent): CallContext | undefined {
  if (event.kind !== 'pending' && event.kind !== 'refusal') return undefined;
  const body = event.body as unknown as CallContext;
  return {
    serverId: body.serverId,
    toolName: body.toolName,
    ...(body.caller ? { caller: body.caller } : {}),
    ...(body.trace ? { trace: body.trace } : {}),
  };
}

/**
 * One chain event as one log record. `context` is the call's, when the event does not carry it;
 * `serverUrl` the server's address when its id is not its URL (server.address, server.port).
 */
export function logRecordOf(
  event: ChainEvent,
  context: CallContext | undefined,
  serverUrl?: string,
): OtlpLogRecord {
  const body = event.body as Record<string, JsonValue | undefined>;
  const call = contextOf(event) ?? context;
  const outcome = outcomeOf(event);
  const severity =
    outcome && ERROR_OUTCOMES.has(outcome)
      ? 'ERROR'
      : outcome && WARN_OUTCOMES.has(outcome)
        ? 'WARN'
        : 'INFO';
  const server = serverAddress(serverUrl ?? call?.serverId);
  const decision = body.decision as { verdict?: string; source?: { kind?: string } } | undefined;
  const error = body.error as { kind?: string } | undefined;
  const nanos = `${Math.trunc(event.at)}000000`;
  const trace = call?.trace;
  return {
    timeUnixNano: nanos,
    observedTimeUnixNano: nanos,
    severityNumber: SEVERITY[severity],
    severityText: severity,
    body: anyValue(event.body),
    attributes: attributes({
      'event.name': `toolgate.audit.${event.kind}`,
      // Stable across re-sends of the same record: a collector (or a query) drops duplicates by it.
      'log.record.uid': event.hash.replace(/^sha256:/, ''),
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call?.toolName,
      'server.address': server?.address,
      'server.port': server?.port,
      'error.type': errorType(outcome, error?.kind),
      'toolgate.audit.seq': event.seq,
      'toolgate.audit.kind': event.kind,
      'toolgate.audit.hash': event.hash,
      'toolgate.audit.prev_hash': event.prevHash,
      'toolgate.invocation.id': event.invocationId,
      'toolgate.server.id': call?.serverId,
      'toolgate.caller.kind': call?.caller?.kind,
      'toolgate.caller.label': call?.caller?.label,
      'toolgate.outcome': outcome,
      'toolgate.decision.verdict': decision?.verdict,
      'toolgate.decision.source': decision?.source?.kind,
      'toolgate.definition.hash': stringOf(body.definitionHash),
      'toolgate.approved_by': stringOf(body.approvedBy),
      'toolgate.duration_ms': typeof body.durationMs === 'number' ? body.durationMs : undefined,
      'toolgate.resend.reason': event.kind === 'resent' ? stringOf(body.reason) : undefined,
      'toolgate.resend.attempt':
        event.kind === 'resent' && typeof body.attempt === 'number' ? body.attempt : undefined,
    }),
    ...(trace ? { traceId: trace.traceId, spanId: trace.spanId, flags: trace.sampled ? 1 : 0 } : {}),
  };
}

/**
 * A signed chain head as a log record of its own kind (event.name toolgate.audit.anchor): the
 * collector keeps a copy the browser cannot rewrite, and with the public key in the body anyone can
 * later check the log still passes through it (AuditLog.verify({ anchor, publicKey }), or
 * scripts/verify-audit-export.mjs). Its seq is toolgate.anchor.seq, not toolgate.audit.seq: it is
 * not an event of the chain.
 */
export function anchorRecordOf(head: AnchoredHead, key: AnchorKey | undefined): OtlpLogRecord {
  const nanos = `${Math.trunc(head.at)}000000`;
  return {
    timeUnixNano: nanos,
    observedTimeUnixNano: nanos,
    severityNumber: SEVERITY.INFO,
    severityText: 'INFO',
    body: anyValue({ ...head, ...(key && key.keyId === head.keyId ? { publicKey: key.jwk } : {}) }),
    attributes: attributes({
      'event.name': 'toolgate.audit.anchor',
      // One head per key and seq: stable across re-sends.
      'log.record.uid': `anchor.${head.keyId}.${head.seq}`,
      'toolgate.anchor.seq': head.seq,
      'toolgate.anchor.hash': head.hash,
      'toolgate.anchor.at': head.at,
      'toolgate.anchor.key_id': head.keyId,
      'toolgate.anchor.signature': head.signature,
    }),
  };
}

/** How the call stood after this event: 'pending' while out, else its outcome. */
function outcomeOf(event: ChainEvent): string | undefined {
  switch (event.kind) {
    case 'pending':
    case 'resent':
    case 'task':
      return 'pending';
    case 'interrupted':
      return 'interrupted';
    default:
      return stringOf((event.body as { outcome?: JsonValue }).outcome);
  }
}

/**
 * error.type as the MCP conventions use it: `tool_error` for a result with isError, else the kind of
 * failure (a JSON-RPC error, a timeout), else the outcome; absent on success and while pending.
 */
function errorType(outcome: string | undefined, kind: string | undefined): string | undefined {
  if (!outcome || outcome === 'success' || outcome === 'pending') return undefined;
  if (outcome === 'tool-error') return 'tool_error';
  return kind ?? outcome;
}

/** server.address and server.port from an http(s) URL. */
function serverAddress(address: string | undefined): { address: string; port: number } | undefined {
  if (!address || !/^https?:\/\//i.test(address)) return undefined;
  try {
    const url = new URL(address);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { address: url.hostname, port };
  } catch {
    // An address that is not a URL gets no server.address attribute.
    return undefined;
  }
}

function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The resource every record of one export shares. */
export interface ExportResource {
  serviceName: string;
  logName: string;
  attributes?: Record<string, string | number | boolean>;
}

/**
 * An ExportLogsServiceRequest around records already serialized (each `JSON.stringify`ed once, which
 * is also how batches are measured in bytes).
 */
export function requestJson(resource: ExportResource, recordsJson: readonly string[]): string {
  const resourceJson = JSON.stringify({
    attributes: attributes({
      ...resource.attributes,
      'service.name': resource.serviceName,
      'toolgate.audit.log': resource.logName,
    }),
  });
  const scope = JSON.stringify({ name: 'toolgate.audit' });
  return `{"resourceLogs":[{"resource":${resourceJson},"scopeLogs":[{"scope":${scope},"logRecords":[${recordsJson.join(',')}]}]}]}`;
}
