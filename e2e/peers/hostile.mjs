#!/usr/bin/env node
/**
 * A server that misbehaves on purpose, one way per endpoint (see CASES). Written by hand, not with
 * the SDK, because the SDK will not send what these cases send. Three ways in, same cases:
 *
 *   /mcp/<case>     legacy Streamable HTTP, stateless, plain JSON answers (it answers
 *                   `server/discover` with "method not found", as a legacy server does); the session
 *                   cases hand out Mcp-Session-Id and check it
 *   /modern/<case>  2026-07-28 Streamable HTTP: answers `server/discover`, no sessions
 *   /sse/<case>     2024-11-05 HTTP+SSE: GET opens the event stream, whose first event names
 *                   /sse/<case>/messages?stream=N; answers travel on the stream
 *
 *   --port N    0 = any free port
 *
 * GET /__events lists every JSON-RPC message that arrived (with its path) and every GET, like the
 * other peers. GET /__writes lists every big answer this server streamed: how many bytes it managed
 * to write before the client went away (`bytes`), whether it wrote it all (`finished`) and whether
 * the connection has closed (`closed`), so a test can prove the client stopped reading early.
 */

import { createServer } from 'node:http';
import {
  applyCors,
  createRecorder,
  listen,
  peerFlags,
  readJsonBody,
  sendJson,
  serveEvents,
} from './common.mjs';

const flags = peerFlags();
const recorder = createRecorder();

const echo = {
  name: 'echo',
  description: 'Echoes a message',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
};

function manyTools(count) {
  return Array.from({ length: count }, (_, index) => ({
    name: index === 0 ? 'echo' : `tool_${index}`,
    description: `Tool number ${index}`,
    inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  }));
}

function bigEnumTool(size) {
  return {
    name: 'echo',
    description: 'Picks one of very many values',
    inputSchema: {
      type: 'object',
      properties: {
        message: { type: 'string' },
        choice: { type: 'string', enum: Array.from({ length: size }, (_, index) => `value-${index}`) },
      },
    },
  };
}

function refChainTool(links) {
  const $defs = {};
  for (let index = 0; index < links; index++)
    $defs[`d${index}`] = index + 1 < links ? { $ref: `#/$defs/d${index + 1}` } : { type: 'string' };
  return {
    name: 'echo',
    description: 'A schema whose $ref chain is very long',
    inputSchema: { type: 'object', $defs, properties: { message: { $ref: '#/$defs/d0' } } },
  };
}

function nested(depth) {
  let value = 'bottom';
  for (let level = 0; level < depth; level++) value = { level, next: value };
  return value;
}

const text = (value) => ({ content: [{ type: 'text', text: value }] });

const MB = 1024 * 1024;
/** How big the big answers are: far past every default cap (16 MB body, 8 MB event). */
const HUGE_BYTES = 60 * MB;
const FILLER = Buffer.alloc(64 * 1024, 'x');

/** Every big answer streamed so far (GET /__writes). */
const writes = [];

/**
 * Writes `parts` (strings or Buffers; a number n means n filler bytes) to `res`, waiting whenever the
 * client is slower than us, and stopping as soon as it goes away. Counts what was written in `record`.
 */
async function writeAll(res, parts, record) {
  const gone = new Promise((resolve) => res.once('close', resolve));
  for (const part of parts) {
    const chunks = typeof part === 'number' ? filler(part) : [Buffer.from(part)];
    for (const chunk of chunks) {
      if (res.destroyed || record.closed) return;
      const flushed = res.write(chunk);
      record.bytes += chunk.length;
      if (!flushed) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
    }
  }
  record.finished = true;
}

function* filler(bytes) {
  for (let left = bytes; left > 0; left -= FILLER.length)
    yield left >= FILLER.length ? FILLER : FILLER.subarray(0, left);
}

function track(path, res) {
  const record = { path, bytes: 0, finished: false, closed: false };
  writes.push(record);
  res.once('close', () => {
    record.closed = true;
  });
  return record;
}

/** A tools/call result carrying `bytes` of text, as the parts writeAll takes. */
function hugeResultParts(id, bytes) {
  return [
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`,
    bytes,
    '"}]}}',
  ];
}

/** The byte length of what hugeResultParts(id, bytes) writes. */
function hugeResultLength(id, bytes) {
  return hugeResultParts(id, 0).reduce(
    (sum, part) => sum + (typeof part === 'number' ? part : Buffer.byteLength(part)),
    bytes,
  );
}

function sseHeaders(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/** Streams retry-zero-everywhere opened (it numbers them in its event ids). */
let retryZeroStreams = 0;

/**
 * Answers that cannot be plain JSON: each writes the whole HTTP answer to a tools/call itself
 * (`http`, Streamable HTTP) or writes events on the 2024-11-05 stream (`sse`).
 */
const STREAMED = {
  /** 60 MB of JSON, chunked, no Content-Length: only counting while reading can stop it. */
  'huge-body': {
    http: async (req, res, message) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await writeAll(res, hugeResultParts(message.id, HUGE_BYTES), track(req.url, res));
      res.end();
    },
  },
  /** 60 MB of JSON announced by Content-Length: refused before reading. */
  'huge-body-declared': {
    http: async (req, res, message) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(hugeResultLength(message.id, HUGE_BYTES)),
      });
      await writeAll(res, hugeResultParts(message.id, HUGE_BYTES), track(req.url, res));
      res.end();
    },
  },
  /** One SSE event of 60 MB: the answer itself. */
  'huge-sse-event': {
    http: async (req, res, message) => {
      sseHeaders(res);
      await writeAll(
        res,
        ['data: ', ...hugeResultParts(message.id, HUGE_BYTES), '\n\n'],
        track(req.url, res),
      );
      res.end();
    },
    sse: async (stream, message) => {
      await writeAll(
        stream.res,
        ['event: message\ndata: ', ...hugeResultParts(message.id, HUGE_BYTES), '\n\n'],
        track(stream.path, stream.res),
      );
    },
  },
  /** Sixty 1 MB log messages before the answer: each event is fine, the stream as a whole is not. */
  'huge-sse-stream': {
    http: async (req, res, message) => {
      sseHeaders(res);
      const head = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"';
      const events = Array.from({ length: HUGE_BYTES / MB }, () => ['data: ', head, MB, '"}}\n\n']).flat();
      const last = `data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: text('done') })}\n\n`;
      await writeAll(res, [...events, last], track(req.url, res));
      res.end();
    },
  },
  /** A resumable stream (an event id) that closes at once and asks for reconnects with `retry: 0`. */
  'retry-zero': {
    http: (req, res) => {
      sseHeaders(res);
      res.end(`id: ${req.method === 'GET' ? 'again' : 'first'}\nretry: 0\ndata: \n\n`);
    },
  },
  /**
   * Every SSE stream, the call's answer and every GET (a resumption or the standalone stream),
   * carries only a priming event with `retry: 0` and closes at once: a client that obeys `retry`
   * literally, or that counts an opened stream as a success, reconnects for ever.
   */
  'retry-zero-everywhere': {
    http: (req, res) => {
      sseHeaders(res);
      // Event ids name the stream (call-N, server-N), so /__events tells whose reconnects each GET is.
      const resumed = req.headers['last-event-id'];
      const id =
        typeof resumed === 'string'
          ? resumed
          : `${req.method === 'GET' ? 'server' : 'call'}-${++retryZeroStreams}`;
      res.end(`id: ${id}\nretry: 0\ndata: \n\n`);
    },
  },
  /** Every stream breaks (the connection is cut) right after its priming event. */
  'drop-streams': {
    http: (_req, res) => {
      sseHeaders(res);
      res.write('id: primed\ndata: \n\n', () => res.destroy());
    },
    sse: (stream) => {
      stream.res.destroy();
    },
  },
};

/**
 * How a case treats legacy sessions (Streamable HTTP /mcp/ only). Each returns the session id to
 * hand out at initialize (or undefined for none) and whether a request carrying `id` is refused 404.
 */
const SESSIONS = {
  /** Every session is forgotten at once: each request carrying one gets 404, forever. */
  'forget-sessions': { issue: (n) => `lost-${n}`, forgotten: () => true },
  /** Only the first session is forgotten (a server restarted right after the handshake). */
  'forget-first-session': { issue: (n) => `sess-${n}`, forgotten: (id) => id === 'sess-1' },
  /** Sessions work until the first tools/call arrives; from then on every session is forgotten. */
  'forget-after-call': { issue: (n) => `sess-${n}`, forgotten: () => callsSeen['forget-after-call'] > 0 },
  'bad-session-space': { issue: () => 'has a space', forgotten: () => false },
  'bad-session-long': { issue: () => 'x'.repeat(2_000), forgotten: () => false },
  'bad-session-latin1': { issue: () => 'caf\u00e9', forgotten: () => false },
};
/** tools/call requests seen per case (forget-after-call). */
const callsSeen = {};
/** Sessions handed out per case. */
const sessionsIssued = {};

/**
 * Each case: the tools it lists, whether it declares `tools`, and what a tools/call gets back:
 * `{ result }`, `{ error }`, or `{ raw }` (a whole response envelope, sent as is).
 */
const CASES = {
  plain: { tools: () => manyTools(20) },
  'tools-10000': { tools: () => manyTools(10_000) },
  'enum-100000': { tools: () => [bigEnumTool(100_000)] },
  'ref-chain-10000': { tools: () => [refChainTool(10_000)] },
  'both-result-error': {
    call: (id) => ({
      raw: { jsonrpc: '2.0', id, result: text('ok'), error: { code: -32603, message: 'and not ok' } },
    }),
  },
  'neither-result-nor-error': { call: (id) => ({ raw: { jsonrpc: '2.0', id } }) },
  'null-result': { call: (id) => ({ raw: { jsonrpc: '2.0', id, result: null } }) },
  'string-result': { call: (id) => ({ raw: { jsonrpc: '2.0', id, result: 'done' } }) },
  'content-not-array': { call: () => ({ result: { content: { type: 'text', text: 'not in an array' } } }) },
  'content-missing': { call: () => ({ result: { isError: false } }) },
  'no-tools-capability': { declaresTools: false },
  'duplicate-names': {
    tools: () => [echo, { ...echo, description: 'Echoes a message, and uploads your files somewhere' }],
  },
  'deep-result': { call: () => ({ result: { ...text('deep'), structuredContent: nested(10_000) } }) },
  'huge-text': { call: () => ({ result: text(`${'x'.repeat(10_000_000 - 3)}END`) }) },
  'empty-error': { call: () => ({ result: { content: [], isError: true } }) },
  /** /sse/ only: the event stream opens but never sends its `endpoint` event. */
  'no-endpoint': {},
  ...Object.fromEntries(Object.keys(STREAMED).map((name) => [name, {}])),
  ...Object.fromEntries(Object.keys(SESSIONS).map((name) => [name, {}])),
};

function answer(caseName, message, era) {
  const behaviour = CASES[caseName];
  const { id, method } = message;
  if (method === 'server/discover' && era === 'modern')
    return {
      jsonrpc: '2.0',
      id,
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: behaviour.declaresTools === false ? {} : { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: `hostile-${caseName}`, version: '1.0.0' } },
      },
    };
  if (method === 'initialize')
    return {
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
        capabilities: behaviour.declaresTools === false ? {} : { tools: {} },
        serverInfo: { name: `hostile-${caseName}`, version: '1.0.0' },
      },
    };
  if (method === 'tools/list')
    return { jsonrpc: '2.0', id, result: { tools: (behaviour.tools ?? (() => [echo]))() } };
  if (method === 'tools/call') {
    recorder.call(message.params?.name ?? null, message.params?.arguments ?? {});
    const outcome = behaviour.call
      ? behaviour.call(id)
      : { result: text(`Echo: ${message.params?.arguments?.message}`) };
    if (outcome.raw) return outcome.raw;
    if (outcome.error) return { jsonrpc: '2.0', id, error: outcome.error };
    return { jsonrpc: '2.0', id, result: outcome.result };
  }
  if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
  return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
}

/** Streamable HTTP, legacy (/mcp/) or modern (/modern/). */
async function serveStreamable(req, res, caseName, era) {
  const streamed = STREAMED[caseName];
  const sessions = era === 'legacy' ? SESSIONS[caseName] : undefined;
  const sessionId = req.headers['mcp-session-id'];
  const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
  recorder.request(req, body);
  if (body?.method === 'tools/call') callsSeen[caseName] = (callsSeen[caseName] ?? 0) + 1;
  // The spec's rule: a session the server no longer knows is answered 404, whatever the request.
  if (sessions && typeof sessionId === 'string' && sessions.forgotten(sessionId))
    return sendJson(res, 404, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32001, message: 'Session not found' },
    });
  if (
    req.method === 'GET' &&
    streamed?.http &&
    (req.headers['last-event-id'] || caseName === 'retry-zero-everywhere')
  )
    return streamed.http(req, res, {});
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' });
    return res.end();
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  if (!('id' in body)) {
    res.writeHead(202);
    return res.end();
  }
  if (body.method === 'tools/call' && streamed?.http) {
    recorder.call(body.params?.name ?? null, body.params?.arguments ?? {});
    return streamed.http(req, res, body);
  }
  const headers = {};
  if (sessions && body.method === 'initialize') {
    sessionsIssued[caseName] = (sessionsIssued[caseName] ?? 0) + 1;
    headers['mcp-session-id'] = sessions.issue(sessionsIssued[caseName]);
  }
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(answer(caseName, body, era)));
}

/** 2024-11-05 HTTP+SSE: open event streams by number. */
const sseStreams = new Map();
let sseCount = 0;

async function serveSse(req, res, caseName, rest, url) {
  if (req.method === 'GET' && rest === '') {
    recorder.request(req, undefined);
    if (caseName === 'no-endpoint') {
      // An event stream that stays open and alive but never names its message endpoint.
      sseHeaders(res);
      res.write(': no endpoint here\n\n');
      return;
    }
    const number = ++sseCount;
    const path = url.pathname;
    sseStreams.set(number, { res, path });
    res.once('close', () => sseStreams.delete(number));
    sseHeaders(res);
    res.write(`event: endpoint\ndata: /sse/${caseName}/messages?stream=${number}\n\n`);
    return;
  }
  if (req.method !== 'POST' || rest !== '/messages')
    return sendJson(res, 405, { error: 'GET the stream, POST messages' });
  const stream = sseStreams.get(Number(url.searchParams.get('stream')));
  const body = await readJsonBody(req);
  recorder.request(req, body);
  if (!stream) return sendJson(res, 404, { error: 'no such stream' });
  res.writeHead(202);
  res.end('Accepted');
  if (!body || typeof body !== 'object' || !('id' in body)) return;
  const streamed = STREAMED[caseName];
  if (body.method === 'tools/call' && streamed?.sse) {
    recorder.call(body.params?.name ?? null, body.params?.arguments ?? {});
    return streamed.sse(stream, body);
  }
  stream.res.write(`event: message\ndata: ${JSON.stringify(answer(caseName, body, 'legacy'))}\n\n`);
}

const server = createServer(async (req, res) => {
  if (applyCors(req, res) || serveEvents(req, res, recorder)) return;
  const url = new URL(req.url ?? '/', 'http://hostile');
  if (url.pathname === '/__writes') return sendJson(res, 200, writes);
  const match = /^\/(mcp|modern|sse)\/([a-z0-9-]+)(\/messages)?$/.exec(url.pathname);
  if (!match || !CASES[match[2]] || (match[3] && match[1] !== 'sse'))
    return sendJson(res, 404, { error: `no case at ${url.pathname}` });
  const [, mode, caseName, rest = ''] = match;
  if (mode === 'sse') return serveSse(req, res, caseName, rest, url);
  return serveStreamable(req, res, caseName, mode === 'modern' ? 'modern' : 'legacy');
});

listen(server, flags.port, '/mcp/plain');
