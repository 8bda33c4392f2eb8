#!/usr/bin/env node
/**
 * An OAuth-protected MCP server and its authorization server (another origin), each broken on
 * purpose in one way the connection doctor must name. Plain node:http, so each fault is exactly
 * the one asked for; the MCP server itself answers browsers (CORS, WWW-Authenticate exposed).
 *
 *   --port N            the MCP server's port (0 = any free one); the authorization server takes any
 *   --as-no-cors        the authorization server sends no CORS headers (its metadata, its token endpoint)
 *   --prm-misplaced     the protected-resource metadata is served under the endpoint's path
 *                       (/mcp/.well-known/oauth-protected-resource), where no client looks, and the
 *                       401 names no resource_metadata
 *   --refuse-tokens     the 401 loop: the authorization server issues tokens (client_credentials at
 *                       /token), and the MCP server answers every one with 401 invalid_token
 *   --registration W    what the authorization server offers: dynamic, cimd, both (default) or none
 *
 * Prints `READY <mcp url>`.
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'as-no-cors': { type: 'boolean', default: false },
    'prm-misplaced': { type: 'boolean', default: false },
    'refuse-tokens': { type: 'boolean', default: false },
    registration: { type: 'string', default: 'both' },
  },
  strict: true,
});

const issued = new Set();

/** CORS for any page, as a server for browser clients sends it. */
function allowPages(req, res) {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('vary', 'Origin');
  res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('access-control-expose-headers', 'mcp-session-id, www-authenticate');
}

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function bodyOf(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

const asServer = createServer(async (req, res) => {
  if (!values['as-no-cors']) allowPages(req, res);
  if (req.method === 'OPTIONS') return void res.writeHead(204).end();
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
    const offers = values.registration;
    return json(res, 200, {
      issuer,
      authorization_endpoint: `${issuer}authorize`,
      token_endpoint: `${issuer}token`,
      ...(offers === 'dynamic' || offers === 'both' ? { registration_endpoint: `${issuer}register` } : {}),
      ...(offers === 'cimd' || offers === 'both' ? { client_id_metadata_document_supported: true } : {}),
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
    });
  }
  if (req.method === 'POST' && path === '/token') {
    const form = new URLSearchParams(await bodyOf(req));
    if (form.get('grant_type') !== 'client_credentials')
      return json(res, 400, { error: 'unsupported_grant_type' });
    const token = randomUUID();
    issued.add(token);
    return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
  }
  json(res, 404, { error: 'not_found' });
});

const mcpServer = createServer(async (req, res) => {
  allowPages(req, res);
  if (req.method === 'OPTIONS') return void res.writeHead(204).end();
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const metadata = { resource: mcpUrl, authorization_servers: [issuer], scopes_supported: ['mcp'] };
  const rightPath = '/.well-known/oauth-protected-resource/mcp';
  const wrongPath = '/mcp/.well-known/oauth-protected-resource';
  if (req.method === 'GET' && path === (values['prm-misplaced'] ? wrongPath : rightPath))
    return json(res, 200, metadata);
  if (path !== '/mcp') return json(res, 404, { error: 'not_found' });

  const body = await bodyOf(req);
  const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const challenge = values['prm-misplaced']
    ? 'Bearer realm="mcp"'
    : `Bearer resource_metadata="${origin}${rightPath}"`;
  if (!token) return json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': challenge });
  if (values['refuse-tokens'] || !issued.has(token))
    return json(
      res,
      401,
      { error: 'invalid_token' },
      {
        'www-authenticate': `${challenge}, error="invalid_token", error_description="The access token is not valid for this resource"`,
      },
    );
  // A signed-in request: just enough of the legacy era for a client to connect and list.
  const message = JSON.parse(body || '{}');
  if (message.id === undefined) return void res.writeHead(202).end();
  if (message.method === 'initialize')
    return json(res, 200, {
      jsonrpc: '2.0',
      id: message.id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'misbehaving-auth', version: '1' },
      },
    });
  if (message.method === 'tools/list')
    return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { tools: [] } });
  json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
});

const listen = (server, port) =>
  new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server.address().port)));
const asPort = await listen(asServer, 0);
const mcpPort = await listen(mcpServer, Number(values.port));
const issuer = `http://127.0.0.1:${asPort}/`;
const origin = `http://127.0.0.1:${mcpPort}`;
const mcpUrl = `${origin}/mcp`;
process.stdout.write(`READY ${mcpUrl}\n`);

const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
