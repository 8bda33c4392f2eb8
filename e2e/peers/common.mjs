/**
 * Plumbing shared by the peer servers: flags, CORS, body reading, the /__events recorder and the
 * READY line. Peers are real SDK servers; this file only adds what a test needs to observe them.
 */

import { parseArgs } from 'node:util';

/** Parses the command line every peer understands. */
export function peerFlags(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      stateless: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'no-cors': { type: 'boolean', default: false },
      'no-expose': { type: 'boolean', default: false },
      'read-file': { type: 'boolean', default: false },
      offerings: { type: 'boolean', default: false },
      'paged-resources': { type: 'string', default: '0' },
    },
    strict: true,
  });
  exposeHeaders = !values['no-expose'];
  return {
    port: Number(values.port),
    stateless: values.stateless,
    json: values.json,
    cors: !values['no-cors'],
    readFile: values['read-file'],
    offerings: values.offerings,
    pagedResources: Number(values['paged-resources']),
  };
}

/** False with --no-expose: CORS that hides mcp-session-id from the page (a common server mistake). */
let exposeHeaders = true;

const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
  'authorization',
  'mcp-method',
  'mcp-name',
];

/**
 * Adds CORS headers for any Origin (echoed, as a browser app on another origin needs) and answers
 * preflights. Returns true when the request was a preflight and is fully answered.
 */
export function applyCors(req, res) {
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    if (exposeHeaders) res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id, mcp-protocol-version');
  }
  if (req.method !== 'OPTIONS') return false;
  // Mcp-Param-* names depend on the tool: allow whatever the browser says it will send, as long
  // as it is one of ours or an Mcp-Param-* header.
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name && (ALLOWED_HEADERS.includes(name) || name.startsWith('mcp-param-')));
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '),
    'Access-Control-Max-Age': '600',
  });
  res.end();
  return true;
}

/** Reads a request body as JSON; undefined for an empty or unparsable body (the SDK then answers it). */
export async function readJsonBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const INTERESTING_HEADERS = [
  'mcp-method',
  'mcp-name',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
];

function interestingHeaders(headers) {
  const picked = {};
  for (const [name, value] of Object.entries(headers)) {
    if (INTERESTING_HEADERS.includes(name) || name.startsWith('mcp-param-')) picked[name] = String(value);
  }
  return picked;
}

/**
 * What reached the server, for tests to prove things from the server side:
 * - messages: every JSON-RPC message POSTed (method, id, headers of interest);
 * - streams: every GET (standalone SSE stream or legacy /sse) with its headers;
 * - calls: tool handlers that actually ran, with their arguments;
 * - cancellations: a handler's abort signal firing, or a notifications/cancelled arriving.
 */
export function createRecorder() {
  const events = { messages: [], streams: [], calls: [], cancellations: [], elicitations: [] };
  return {
    events,
    request(req, body) {
      const headers = interestingHeaders(req.headers);
      if (req.method === 'GET') {
        events.streams.push({ path: req.url, headers });
        return;
      }
      if (req.method !== 'POST') return;
      for (const message of Array.isArray(body) ? body : [body]) {
        if (!message || typeof message !== 'object') continue;
        events.messages.push({
          path: req.url,
          method: message.method ?? null,
          id: message.id ?? null,
          headers,
          ...(message.method === 'tools/call' ? { tool: message.params?.name ?? null } : {}),
          // W3C trace context as the call carried it in _meta (OpenTelemetry propagation).
          ...(message.method === 'tools/call' && typeof message.params?._meta?.traceparent === 'string'
            ? {
                traceparent: message.params._meta.traceparent,
                tracestate: message.params._meta.tracestate ?? null,
              }
            : {}),
          ...(message.method === 'initialize' ? { protocolVersion: message.params?.protocolVersion } : {}),
        });
        if (message.method === 'notifications/cancelled')
          events.cancellations.push({
            via: 'notification',
            requestId: message.params?.requestId ?? null,
            reason: message.params?.reason ?? null,
          });
      }
    },
    call(tool, args) {
      events.calls.push({ tool, arguments: args });
    },
    cancelled(tool, args, reason) {
      events.cancellations.push({
        via: 'abort',
        tool,
        arguments: args,
        reason: reason === undefined ? null : String(reason),
      });
    },
    elicited(tool, answer) {
      events.elicitations.push({ tool, answer });
    },
  };
}

/** Serves GET /__events; true when the request was for it. */
export function serveEvents(req, res, recorder) {
  const path = new URL(req.url ?? '/', 'http://peer').pathname;
  if (path !== '/__events') return false;
  sendJson(res, 200, recorder.events);
  return true;
}

/** Listens on 127.0.0.1 and prints the one READY line the test harness waits for. */
export function listen(server, port, path) {
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`READY http://127.0.0.1:${address.port}${path}\n`);
  });
  // Exit at once: open SSE streams would keep a graceful close() waiting forever.
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
