/**
 * An OTLP/HTTP logs receiver for tests (no OpenTelemetry Collector can be installed from the
 * registries here): POST /v1/logs with `application/json`, each request checked against the OTLP
 * protobuf schema (test/support/otlp/schema.ts) and answered as a collector does (200 with an
 * ExportLogsServiceResponse, 400 with a Status for a malformed request). It can be told to fail the
 * way real collectors and networks do: answer 503 with Retry-After, refuse (reset) connections,
 * take a batch but lose the answer (the client must send it again), refuse with any status.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkLogsRequest } from './otlp/schema.js';

/** How the receiver answers the next requests. */
export type ReceiverMode =
  | { kind: 'up' }
  | { kind: 'unavailable'; retryAfterSeconds?: number }
  | { kind: 'reset' }
  | { kind: 'lose-answer' }
  | { kind: 'status'; status: number }
  | { kind: 'partial'; rejected: number }
  /** 413 for a request of more than `records` log records (a collector's body size limit). */
  | { kind: 'max-records'; records: number };

/** One log record as received, with its attributes as plain values. */
export interface ReceivedRecord {
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  body: unknown;
  traceId?: string;
  spanId?: string;
  severityNumber?: number;
  timeUnixNano: string;
}

export interface OtlpReceiver {
  /** Base URL (http://127.0.0.1:PORT); records go to `${url}/v1/logs`. */
  url: string;
  /** Every record accepted, in arrival order (duplicates included). */
  records: ReceivedRecord[];
  /** Requests answered, by what happened to them. */
  counts: { accepted: number; refused: number; invalid: number };
  /** Problems found in invalid requests. */
  problems: string[];
  /** Headers of the last request (to check what the client sent). */
  lastHeaders: Record<string, string | string[] | undefined>;
  setMode(mode: ReceiverMode): void;
  /** Stops listening: connections are refused until `comeBack` (same port). */
  goDown(): Promise<void>;
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(
  options: { allowOrigin?: string; port?: number } = {},
): Promise<OtlpReceiver> {
  let mode: ReceiverMode = { kind: 'up' };
  const receiver: Omit<OtlpReceiver, 'url' | 'close' | 'goDown' | 'comeBack'> = {
    records: [],
    counts: { accepted: 0, refused: 0, invalid: 0 },
    problems: [],
    lastHeaders: {},
    setMode(next) {
      mode = next;
    },
  };

  const cors = (response: ServerResponse) => {
    if (!options.allowOrigin) return;
    response.setHeader('access-control-allow-origin', options.allowOrigin);
    response.setHeader('access-control-allow-methods', 'POST');
    response.setHeader('access-control-allow-headers', 'content-type, authorization, x-api-key');
    response.setHeader('access-control-expose-headers', 'retry-after');
    response.setHeader('access-control-max-age', '600');
  };
  const answer = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    cors(response);
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };

  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'OPTIONS') {
      cors(response);
      response.writeHead(204).end();
      return;
    }
    if (request.method !== 'POST' || request.url?.split('?')[0] !== '/v1/logs') {
      answer(response, 404, { code: 5, message: 'only POST /v1/logs is served' });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    receiver.lastHeaders = request.headers;
    const current = mode;
    if (current.kind === 'reset') {
      receiver.counts.refused++;
      request.socket.destroy();
      return;
    }
    if (current.kind === 'unavailable' || current.kind === 'status') {
      receiver.counts.refused++;
      const status = current.kind === 'status' ? current.status : 503;
      const retryAfter =
        current.kind === 'unavailable' && current.retryAfterSeconds !== undefined
          ? { 'retry-after': String(current.retryAfterSeconds) }
          : undefined;
      answer(response, status, { code: 14, message: `test receiver answers ${status}` }, retryAfter);
      return;
    }
    if (!String(request.headers['content-type']).startsWith('application/json')) {
      receiver.counts.invalid++;
      receiver.problems.push(`content-type ${request.headers['content-type']}`);
      answer(response, 415, { code: 3, message: 'OTLP/HTTP JSON needs content-type application/json' });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const checked = checkLogsRequest(parsed);
    if (!checked.ok) {
      receiver.counts.invalid++;
      receiver.problems.push(checked.problem);
      answer(response, 400, { code: 3, message: checked.problem });
      return;
    }
    const records = recordsOf(parsed as LogsRequestJson);
    if (current.kind === 'max-records' && records.length > current.records) {
      receiver.counts.refused++;
      answer(response, 413, { code: 8, message: `more than ${current.records} records in one request` });
      return;
    }
    receiver.counts.accepted++;
    receiver.records.push(...records);
    if (current.kind === 'lose-answer') {
      // Taken, but the acknowledgement never arrives: the client must send these again.
      request.socket.destroy();
      return;
    }
    const partial =
      current.kind === 'partial'
        ? { partialSuccess: { rejectedLogRecords: String(current.rejected), errorMessage: 'test rejection' } }
        : {};
    answer(response, 200, partial);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    ...receiver,
    // Getters so callers see the receiver's current arrays and counters.
    get records() {
      return receiver.records;
    },
    get counts() {
      return receiver.counts;
    },
    get problems() {
      return receiver.problems;
    },
    get lastHeaders() {
      return receiver.lastHeaders;
    },
    url: `http://127.0.0.1:${port}`,
    goDown: stopListening,
    comeBack: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => (server.listening ? stopListening() : Promise.resolve()),
  };
}

interface KeyValueJson {
  key: string;
  value: AnyValueJson;
}
type AnyValueJson = Record<string, unknown>;
interface LogsRequestJson {
  resourceLogs: {
    resource?: { attributes?: KeyValueJson[] };
    scopeLogs: {
      logRecords: {
        attributes?: KeyValueJson[];
        body?: AnyValueJson;
        traceId?: string;
        spanId?: string;
        severityNumber?: number;
        timeUnixNano: string;
      }[];
    }[];
  }[];
}

function recordsOf(request: LogsRequestJson): ReceivedRecord[] {
  return request.resourceLogs.flatMap((resourceLogs) => {
    const resource = plain(resourceLogs.resource?.attributes ?? []);
    return resourceLogs.scopeLogs.flatMap((scope) =>
      scope.logRecords.map((record) => ({
        attributes: plain(record.attributes ?? []),
        resource,
        body: record.body ? plainValue(record.body) : undefined,
        ...(record.traceId ? { traceId: record.traceId.toLowerCase() } : {}),
        ...(record.spanId ? { spanId: record.spanId.toLowerCase() } : {}),
        ...(record.severityNumber !== undefined ? { severityNumber: record.severityNumber } : {}),
        timeUnixNano: String(record.timeUnixNano),
      })),
    );
  });
}

function plain(list: KeyValueJson[]): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, plainValue(value)]));
}

/** An AnyValue as the plain value it stands for (intValue as a number). */
export function plainValue(value: AnyValueJson): unknown {
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('arrayValue' in value)
    return ((value.arrayValue as { values?: AnyValueJson[] }).values ?? []).map(plainValue);
  if ('kvlistValue' in value) return plain((value.kvlistValue as { values?: KeyValueJson[] }).values ?? []);
  return null;
}
