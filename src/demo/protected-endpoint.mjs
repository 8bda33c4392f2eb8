/**
 * An MCP server that requires OAuth bearer tokens for its resource, built with the official SDK:
 * it publishes its Protected Resource Metadata (RFC 9728), checks every request's token with the
 * SDK's requireBearerAuth (known to the authorization server, unexpired, issued for this very
 * resource, with the base scope), and asks for more scope (403 insufficient_scope, naming every
 * scope the call needs) before a tool that writes. Used by `npm start` (the sign-in demo) and by
 * the OAuth e2e suite, with oidc-provider as its authorization server (authorization-server.mjs).
 */

import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import express from 'express';
import { z } from 'zod';
import { answerStateless } from './stateless.mjs';

export const BASE_SCOPE = 'mcp:tools';
export const WRITE_SCOPE = 'mcp:write';

/** Where a server at `resource` publishes its metadata (RFC 9728's path-inserted form). */
export function resourceMetadataUrlOf(resource) {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}`;
}

/**
 * The Protected Resource Metadata document of `resource`; `dpopRequired`: it takes only DPoP-bound
 * tokens, with ES256 proofs (RFC 9728 §2).
 */
export function protectedResourceMetadata({ resource, issuer, name, dpopRequired }) {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [BASE_SCOPE, WRITE_SCOPE],
    bearer_methods_supported: ['header'],
    ...(name ? { resource_name: name } : {}),
    ...(dpopRequired
      ? { dpop_bound_access_tokens_required: true, dpop_signing_alg_values_supported: ['ES256'] }
      : {}),
  };
}

/**
 * Express middleware for the MCP endpoint of `resource` (mount it at the resource's path).
 * @param {object} options
 * @param {string} options.resource The canonical URI of this server (tokens must be for it).
 * @param {(token: string) => Promise<{ clientId: string, scopes: string[], expiresAt: number, audience: string[] } | undefined>} options.introspect
 * @param {string} [options.name]
 * @param {boolean} [options.refuseEveryToken] Answer 401 to every token, even a fresh one (tests).
 * @param {(request: { method: string, rpcMethod: string | null, authorization: string | null }) => void} [options.onRequest]
 * @param {import('express').RequestHandler} [options.checkFirst] Runs before the bearer check, after
 *   the request is recorded: a proof-of-possession check (tests' DPoP resource) goes here.
 */
export function protectedMcpEndpoint(options) {
  const resourceMetadataUrl = resourceMetadataUrlOf(options.resource);
  const notes = [];
  const verifier = {
    async verifyAccessToken(token) {
      if (options.refuseEveryToken) throw new InvalidTokenError('this server refuses every token');
      const found = await options.introspect(token);
      if (!found) throw new InvalidTokenError('unknown, expired or revoked token');
      return {
        token,
        clientId: found.clientId,
        scopes: found.scopes,
        expiresAt: found.expiresAt,
        // The audience the authorization server bound the token to (RFC 8707).
        ...(found.audience.length === 1 ? { resource: new URL(found.audience[0]) } : {}),
      };
    },
  };
  const router = express.Router();
  router.use(express.json(), (req, _res, next) => {
    options.onRequest?.({
      method: req.method,
      rpcMethod: req.body?.method ?? null,
      authorization: req.headers.authorization ?? null,
    });
    next();
  });
  if (options.checkFirst) router.use(options.checkFirst);
  router.use(
    requireBearerAuth({
      verifier,
      requiredScopes: [BASE_SCOPE],
      resourceMetadataUrl,
      expectedResource: new URL(options.resource),
    }),
  );
  router.post('/', (req, res, next) => {
    const tool = req.body?.method === 'tools/call' ? req.body?.params?.name : undefined;
    if (tool === 'add_note' && !req.auth.scopes.includes(WRITE_SCOPE)) {
      // MCP step-up: the challenge names every scope this call needs, not only the missing one.
      res
        .status(403)
        .set(
          'WWW-Authenticate',
          `Bearer error="insufficient_scope", scope="${BASE_SCOPE} ${WRITE_SCOPE}", resource_metadata="${resourceMetadataUrl}", error_description="add_note needs ${WRITE_SCOPE}"`,
        )
        .json({ error: 'insufficient_scope' });
      return;
    }
    next();
  });
  router.post('/', async (req, res) => {
    const server = new McpServer({ name: options.name ?? 'protected-demo', version: '1.0.0' });
    registerProtectedTools(server, notes);
    // Stateless: every POST is answered on its own, with the caller's token checked each time.
    await answerStateless(server, req, res, req.body);
  });
  router.all('/', (_req, res) => res.status(405).set('Allow', 'POST').end());
  return router;
}

function registerProtectedTools(server, notes) {
  server.registerTool(
    'whoami',
    {
      title: 'Who am I',
      description: 'Says which client called and with which scopes (read-only).',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    async (_args, extra) => ({
      content: [
        { type: 'text', text: `client ${extra.authInfo?.clientId} with ${extra.authInfo?.scopes.join(' ')}` },
      ],
    }),
  );
  server.registerTool(
    'read_notes',
    {
      title: 'Read notes',
      description: 'Lists the notes kept on this server (needs mcp:tools).',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    async () => ({
      content: [{ type: 'text', text: notes.length ? notes.join('\n') : '(no notes yet)' }],
    }),
  );
  server.registerTool(
    'add_note',
    {
      title: 'Add a note',
      description: 'Keeps a note on this server (needs mcp:write: the first call asks for it).',
      inputSchema: z.object({ text: z.string().min(1).max(500) }),
    },
    async ({ text }) => {
      notes.push(text);
      return { content: [{ type: 'text', text: `noted (${notes.length} in all)` }] };
    },
  );
}

/**
 * One protected MCP server as a node:http handler: its resource metadata at the RFC 9728 location
 * and its MCP endpoint at the resource's path.
 * @param {{ resource: string, issuer: string, introspect: Function, name?: string }} options
 */
export function protectedServerHandler({ resource, issuer, introspect, name }) {
  const app = express();
  app.get(new URL(resourceMetadataUrlOf(resource)).pathname, (_req, res) =>
    res.json(protectedResourceMetadata({ resource, issuer, ...(name ? { name } : {}) })),
  );
  app.use(
    new URL(resource).pathname,
    protectedMcpEndpoint({ resource, introspect, ...(name ? { name } : {}) }),
  );
  return (req, res) => app(req, res);
}

/** CORS for browser pages of any origin, exposing what an MCP client and OAuth read. */
export function allowBrowsers(req, res, next) {
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id, mcp-protocol-version, www-authenticate');
  }
  if (req.method !== 'OPTIONS') return next();
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'content-type',
    'Access-Control-Max-Age': '600',
  });
  res.end();
}
