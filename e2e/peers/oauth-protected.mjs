/**
 * An MCP server that requires OAuth bearer tokens, and its authorization server, both from the
 * official SDK: the resource server publishes Protected Resource Metadata (mcpAuthMetadataRouter)
 * and checks tokens with requireBearerAuth (audience included); the authorization server is the
 * SDK's mcpAuthRouter (metadata, Dynamic Client Registration, authorize with PKCE, token) over the
 * SDK's own in-memory demo provider, which approves every authorization request at once, as if a
 * person had consented. The only policy added here: calling the tool `write` needs the scope
 * `mcp:write` (the step-up case), answered as RFC 6750 and the MCP spec say (403 insufficient_scope).
 *
 * Both servers record what they saw, so a test proves from the server side which requests carried
 * a token, how many sign-ins happened and what `resource` was asked for.
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { mcpAuthMetadataRouter, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import express from 'express';
import { z } from 'zod';
import { allowBrowsers } from '../../src/demo/protected-endpoint.mjs';
import { answerStateless } from '../../src/demo/stateless.mjs';

const BASIC_SCOPE = 'mcp:tools';
const WRITE_SCOPE = 'mcp:write';

/**
 * The SDK's demo provider, completed with what a real authorization server does and the demo
 * leaves out: refresh tokens (rotated on use), token lifetimes and revocation. Grant handling,
 * client authentication and PKCE stay the SDK's (mcpAuthRouter's handlers call these methods).
 */
class RefreshingProvider extends DemoInMemoryAuthProvider {
  constructor(seen, lifetimeSeconds) {
    super();
    this.seen = seen;
    this.lifetimeSeconds = lifetimeSeconds;
    this.refreshGrants = new Map();
  }

  async exchangeAuthorizationCode(client, code, verifier, redirectUri, resource) {
    const issued = await super.exchangeAuthorizationCode(client, code, verifier, redirectUri, resource);
    const record = this.tokens.get(issued.access_token);
    return this.issue(client, record.scopes, record.resource);
  }

  async exchangeRefreshToken(client, refreshToken, scopes, resource) {
    const grant = this.refreshGrants.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
    this.refreshGrants.delete(refreshToken);
    this.seen.refreshes.push({ resource: resource?.href });
    return this.issue(client, scopes?.length ? scopes : grant.scopes, grant.resource);
  }

  /** An unknown or expired token is the client's problem (401 invalid_token), not a server error. */
  async verifyAccessToken(token) {
    const record = this.tokens.get(token);
    if (!record || record.expiresAt < Date.now()) throw new InvalidTokenError('unknown or expired token');
    return super.verifyAccessToken(token);
  }

  async revokeToken(_client, request) {
    this.seen.revocations++;
    this.refreshGrants.delete(request.token);
    this.tokens.delete(request.token);
  }

  issue(client, scopes, resource) {
    const accessToken = randomUUID();
    const refreshToken = randomUUID();
    this.tokens.set(accessToken, {
      token: accessToken,
      clientId: client.client_id,
      scopes,
      expiresAt: Date.now() + this.lifetimeSeconds * 1000,
      resource,
      type: 'access',
    });
    this.refreshGrants.set(refreshToken, { clientId: client.client_id, scopes, resource });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: this.lifetimeSeconds,
      scope: scopes.join(' '),
      refresh_token: refreshToken,
    };
  }
}

/**
 * @param {{ prmResource?: string, refuseEveryToken?: boolean, cors?: boolean, refreshTokens?: boolean, lifetimeSeconds?: number }} [options]
 *   prmResource: the `resource` the metadata claims (another server's, to test the refusal);
 *   refuseEveryToken: answer 401 to every token, even a fresh one (an endless-401 server);
 *   cors: the MCP server answers browser pages of any origin, exposing WWW-Authenticate (as a
 *   server for browser clients must); the SDK's authorization server always sends CORS headers;
 *   refreshTokens: issue refresh tokens and accept revocation (RefreshingProvider), tokens living
 *   lifetimeSeconds (default 3600).
 */
export async function startProtectedServer(options = {}) {
  const asServer = await listening();
  const mcpServer = await listening();
  const issuer = new URL(`http://127.0.0.1:${asServer.address().port}`);
  const mcpUrl = new URL(`http://127.0.0.1:${mcpServer.address().port}/mcp`);
  const seen = {
    authorizations: [],
    registrations: 0,
    tokenRequests: [],
    refreshes: [],
    revocations: 0,
    mcp: [],
  };

  const provider = options.refreshTokens
    ? new RefreshingProvider(seen, options.lifetimeSeconds ?? 3600)
    : new DemoInMemoryAuthProvider();
  const authorize = provider.authorize.bind(provider);
  provider.authorize = async (client, params, res) => {
    seen.authorizations.push({ scopes: params.scopes ?? [], resource: params.resource?.href });
    return authorize(client, params, res);
  };
  const asApp = express();
  asApp.use((req, _res, next) => {
    if (req.method === 'POST' && req.path === '/register') seen.registrations++;
    next();
  });
  asApp.use(express.urlencoded({ extended: false }));
  asApp.use((req, _res, next) => {
    if (req.method === 'POST' && req.path === '/token')
      seen.tokenRequests.push({ grantType: req.body?.grant_type, resource: req.body?.resource });
    next();
  });
  asApp.use(mcpAuthRouter({ provider, issuerUrl: issuer, scopesSupported: [BASIC_SCOPE, WRITE_SCOPE] }));
  asServer.on('request', asApp);

  const oauthMetadata = {
    issuer: issuer.href,
    authorization_endpoint: new URL('/authorize', issuer).href,
    token_endpoint: new URL('/token', issuer).href,
    registration_endpoint: new URL('/register', issuer).href,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  };
  const resourceMetadataUrl = `${mcpUrl.origin}/.well-known/oauth-protected-resource/mcp`;
  const mcpApp = express();
  if (options.cors) mcpApp.use(allowBrowsers);
  mcpApp.use(
    mcpAuthMetadataRouter({
      oauthMetadata,
      resourceServerUrl: new URL(options.prmResource ?? mcpUrl.href),
      scopesSupported: [BASIC_SCOPE],
    }),
  );
  mcpApp.use('/mcp', express.json(), (req, _res, next) => {
    seen.mcp.push({
      method: req.method,
      rpcMethod: req.body?.method ?? null,
      authorization: req.headers.authorization ?? null,
    });
    next();
  });
  const verifier = options.refuseEveryToken
    ? {
        verifyAccessToken: async () => {
          throw new InvalidTokenError('token refused by this test server');
        },
      }
    : provider;
  mcpApp.post(
    '/mcp',
    requireBearerAuth({
      verifier,
      requiredScopes: [BASIC_SCOPE],
      resourceMetadataUrl,
      expectedResource: mcpUrl,
    }),
    (req, res, next) => {
      // The write tool needs more: the challenge names every scope the call needs (MCP step-up).
      const needsWrite = req.body?.method === 'tools/call' && req.body?.params?.name === 'write';
      if (needsWrite && !req.auth.scopes.includes(WRITE_SCOPE)) {
        res
          .status(403)
          .set(
            'WWW-Authenticate',
            `Bearer error="insufficient_scope", scope="${BASIC_SCOPE} ${WRITE_SCOPE}", resource_metadata="${resourceMetadataUrl}"`,
          )
          .json({ error: 'insufficient_scope' });
        return;
      }
      next();
    },
    async (req, res) => {
      const server = new McpServer({ name: 'oauth-protected', version: '1.0.0' });
      server.registerTool(
        'whoami',
        { description: 'Says which client called', inputSchema: z.object({}) },
        async (_args, extra) => ({
          content: [
            {
              type: 'text',
              text: `client ${extra.authInfo?.clientId} with ${extra.authInfo?.scopes.join(' ')}`,
            },
          ],
        }),
      );
      server.registerTool(
        'write',
        { description: 'Needs mcp:write', inputSchema: z.object({}) },
        async () => ({
          content: [{ type: 'text', text: 'written' }],
        }),
      );
      await answerStateless(server, req, res, req.body);
    },
  );
  mcpApp.all('/mcp', (_req, res) => res.status(405).set('Allow', 'POST').end());
  mcpServer.on('request', mcpApp);

  return {
    url: mcpUrl.href,
    issuer: issuer.href,
    seen,
    /** Forgets every access token, as a server does when they expire or are revoked. */
    expireAccessTokens() {
      provider.tokens.clear();
    },
    async close() {
      await Promise.all([asServer, mcpServer].map(closeServer));
    },
  };
}

function listening() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function closeServer(server) {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}
