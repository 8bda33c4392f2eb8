#!/usr/bin/env node
/**
 * A server that misbehaves on purpose, one way per endpoint: `/mcp/<case>` (see CASES). It speaks the
 * legacy era statelessly with plain JSON answers (it answers `server/discover` with "method not
 * found", as a legacy server does), which is all it needs to break the protocol in each way a test
 * asks for. Written by hand, not with the SDK, because the SDK will not send what these cases send.
 *
 *   --port N    0 = any free port
 *
 * GET /__events lists every JSON-RPC message that arrived, with its path, like the other peers.
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
};

function answer(caseName, message) {
  const behaviour = CASES[caseName];
  const { id, method } = message;
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

const server = createServer(async (req, res) => {
  if (applyCors(req, res) || serveEvents(req, res, recorder)) return;
  const path = new URL(req.url ?? '/', 'http://hostile').pathname;
  const match = /^\/mcp\/([a-z0-9-]+)$/.exec(path);
  if (!match || !CASES[match[1]]) return sendJson(res, 404, { error: `no case at ${path}` });
  if (req.method === 'GET' || req.method === 'DELETE') {
    res.writeHead(405, { allow: 'POST' });
    return res.end();
  }
  const body = await readJsonBody(req);
  recorder.request(req, body);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  if (!('id' in body)) {
    res.writeHead(202);
    return res.end();
  }
  sendJson(res, 200, answer(match[1], body));
});

listen(server, flags.port, '/mcp/plain');
