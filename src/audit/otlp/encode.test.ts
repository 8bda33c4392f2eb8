/**
 * Audit events as OTLP log records, checked against the OTLP protobuf schema by the test receiver's
 * checker (the official generated types); the checker itself is held to the specification's own
 * JSON example first, so a checker that accepts anything would fail here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkLogsRequest } from '../../../test/support/otlp/schema.js';
import { ANCHOR_ALGORITHM, type AnchoredHead, anchorKeyOf, signatureProblem, signHead } from '../anchor.js';
import type { ChainEvent } from '../chain.js';
import { anchorRecordOf, anyValue, contextOf, logRecordOf, requestJson } from './encode.js';

const example = JSON.parse(readFileSync('test/support/otlp/logs-example.json', 'utf8')) as {
  resourceLogs: { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[];
};

describe('the schema check', () => {
  it("accepts the OTLP specification's JSON example", () => {
    expect(checkLogsRequest(example)).toMatchObject({ ok: true });
  });

  it('refuses unknown fields, malformed ids, non-integer times and wrong value types', () => {
    const broken = (edit: (record: Record<string, unknown>) => void) => {
      const copy = structuredClone(example);
      edit(copy.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!);
      return checkLogsRequest(copy);
    };
    expect(broken((r) => (r.severity = 9))).toMatchObject({ ok: false, problem: /severity/ });
    expect(broken((r) => (r.traceId = 'xyz'))).toMatchObject({ ok: false, problem: /traceId/ });
    expect(broken((r) => (r.spanId = 'abcd'))).toMatchObject({ ok: false, problem: /spanId/ });
    expect(broken((r) => (r.timeUnixNano = '12.5'))).toMatchObject({ ok: false, problem: /timeUnixNano/ });
    expect(broken((r) => (r.body = { text: 'x' }))).toMatchObject({ ok: false, problem: /body\.text/ });
    expect(
      checkLogsRequest({ resourceLogs: [{ scopeLogs: [{ records: [{ timeUnixNano: '1' }] }] }] }),
    ).toMatchObject({
      ok: false,
    });
  });
});

const trace = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b7', sampled: true };
const pending: ChainEvent = {
  seq: 7,
  invocationId: 'inv-1',
  kind: 'pending',
  at: 1_764_000_000_123,
  body: {
    invocationId: 'inv-1',
    serverId: 'https://tools.example.com:8443/mcp',
    toolName: 'get_weather',
    definitionHash: 'sha256:def',
    caller: { kind: 'host', label: 'the assistant' },
    arguments: { city: 'Oslo', days: 2, ratio: 0.5, tags: ['a', null], api_key: '[redacted]' },
    decision: { verdict: 'ask', source: { kind: 'default', reason: 'untrusted-server' }, reason: 'asks' },
    approvedBy: 'person',
    timestamps: { requested: 1, decided: 2, sent: 3 },
    trace,
    sessionId: 's',
    redactedPaths: ['api_key'],
  },
  prevHash: 'sha256:prev',
  hash: 'sha256:abc123',
};
const final: ChainEvent = {
  seq: 8,
  invocationId: 'inv-1',
  kind: 'final',
  at: 1_764_000_000_999,
  body: {
    invocationId: 'inv-1',
    outcome: 'tool-error',
    finishedAt: 1_764_000_000_999,
    durationMs: 876,
    result: { content: [{ type: 'text', text: 'no such city' }], isError: true },
    redactedPaths: [],
  },
  prevHash: 'sha256:abc123',
  hash: 'sha256:def456',
};

/** A log record's attributes by key, each value as its one AnyValue field held. */
const attributesOf = (record: { attributes: { key: string; value: object }[] }) =>
  Object.fromEntries(record.attributes.map(({ key, value }) => [key, Object.values(value)[0]]));

function request(events: ChainEvent[]): Record<string, unknown> {
  const context = contextOf(events[0]!);
  const json = requestJson(
    { serviceName: 'toolgate-test', logName: 'audit', attributes: { 'service.instance.id': 'browser-1' } },
    events.map((event) => JSON.stringify(logRecordOf(event, context))),
  );
  return JSON.parse(json) as Record<string, unknown>;
}

describe('audit events as log records', () => {
  it('encode to requests the OTLP schema accepts', () => {
    expect(checkLogsRequest(request([pending, final]))).toMatchObject({ ok: true });
  });

  it('carry the MCP and GenAI semantic-convention attributes, the trace and a stable record id', () => {
    const pendingRecord = logRecordOf(pending, undefined);
    const names = attributesOf(pendingRecord);
    expect(names).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'server.address': 'tools.example.com',
      'server.port': '8443',
      'log.record.uid': 'abc123',
      'toolgate.audit.seq': '7',
      'toolgate.outcome': 'pending',
      'toolgate.caller.kind': 'host',
      'toolgate.decision.verdict': 'ask',
    });
    expect(names['error.type']).toBeUndefined();
    expect(pendingRecord).toMatchObject({
      timeUnixNano: '1764000000123000000',
      traceId: trace.traceId,
      spanId: trace.spanId,
      flags: 1,
      severityText: 'INFO',
    });
  });

  it("gives a final event its call's tool, server and trace, and the MCP error.type for a tool error", () => {
    const record = logRecordOf(final, contextOf(pending));
    const names = attributesOf(record);
    expect(names).toMatchObject({
      'gen_ai.tool.name': 'get_weather',
      'error.type': 'tool_error',
      'toolgate.outcome': 'tool-error',
      'toolgate.duration_ms': '876',
    });
    expect(record).toMatchObject({ traceId: trace.traceId, severityText: 'WARN', severityNumber: 13 });
  });

  it('keeps the body as the log stored it (redacted values stay redacted)', () => {
    const body = JSON.stringify(logRecordOf(pending, undefined).body);
    expect(body).toContain('[redacted]');
    expect(anyValue({ a: 1, b: 1.5, c: null, d: [true] })).toEqual({
      kvlistValue: {
        values: [
          { key: 'a', value: { intValue: '1' } },
          { key: 'b', value: { doubleValue: 1.5 } },
          { key: 'c', value: {} },
          { key: 'd', value: { arrayValue: { values: [{ boolValue: true }] } } },
        ],
      },
    });
  });
});

describe('signed heads as records of their own', () => {
  it('are schema-valid, named toolgate.audit.anchor, and verify from the collector copy alone', async () => {
    const pair = await crypto.subtle.generateKey(ANCHOR_ALGORITHM, false, ['sign', 'verify']);
    const key = await anchorKeyOf(pair.publicKey);
    const head = await signHead(
      pair.privateKey,
      key.keyId,
      { seq: 42, hash: `sha256:${'ab'.repeat(32)}` },
      1,
    );
    const record = anchorRecordOf(head, key);
    expect(
      checkLogsRequest(JSON.parse(requestJson({ serviceName: 't', logName: 'l' }, [JSON.stringify(record)]))),
    ).toMatchObject({ ok: true });
    const attrs = attributesOf(record);
    expect(attrs).toMatchObject({
      'event.name': 'toolgate.audit.anchor',
      'log.record.uid': `anchor.${key.keyId}.42`,
      'toolgate.anchor.seq': '42',
      'toolgate.anchor.hash': head.hash,
      'toolgate.anchor.key_id': key.keyId,
      'toolgate.anchor.signature': head.signature,
    });
    expect(attrs['toolgate.audit.seq']).toBeUndefined();
    // What a collector keeps is enough to check the head: the body holds it and the public key.
    const body = plain(record.body) as AnchoredHead & { publicKey: JsonWebKey };
    expect(await signatureProblem(body, body.publicKey)).toBeUndefined();
    expect(await signatureProblem({ ...body, seq: 43 }, body.publicKey)).toMatch(/does not verify/);
    // A key that is not the head's is not attached (a rotated key would mislead the collector).
    const other = await anchorKeyOf(
      (await crypto.subtle.generateKey(ANCHOR_ALGORITHM, false, ['sign'])).publicKey,
    );
    expect(plain(anchorRecordOf(head, other).body)).not.toHaveProperty('publicKey');
  });
});

/** An AnyValue back to plain JSON (numbers from intValue strings). */
function plain(value: unknown): unknown {
  const v = value as Record<string, unknown>;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if ('arrayValue' in v) return (v.arrayValue as { values: unknown[] }).values.map(plain);
  if ('kvlistValue' in v)
    return Object.fromEntries(
      (v.kvlistValue as { values: { key: string; value: unknown }[] }).values.map(({ key, value }) => [
        key,
        plain(value),
      ]),
    );
  return null;
}
