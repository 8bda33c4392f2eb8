/**
 * oidc-provider (a certified OpenID provider) as the authorization server in front of MCP servers
 * built with the official SDK that require bearer tokens for their resource: the same two parts
 * `npm start` runs (src/demo/authorization-server.mjs, src/demo/protected-endpoint.mjs), on two
 * ports of 127.0.0.1, with every MCP server answering browser pages of any origin (CORS exposing
 * WWW-Authenticate).
 *
 * The resource server holds several MCP servers, one per path, each its own resource:
 *   /mcp            the good one;
 *   /refuses/mcp    refuses every token, even a fresh one (an endless 401 loop);
 *   /not-json/mcp   its resource metadata is an HTML page;
 *   /elsewhere/mcp  its resource metadata claims /mcp's resource (tokens for /mcp must never reach it);
 *   /plain-http/mcp its resource metadata names an authorization server on plain http elsewhere;
 *   /dpop/mcp       takes only DPoP-bound tokens (its metadata says so; JWT tokens, proofs checked
 *                   by dpop-proof-check.mjs).
 * Both servers record what they saw, so a test proves from the server side which requests carried
 * which token and what the authorization server was asked for.
 */

import { createServer } from 'node:http';
import express from 'express';
import { startAuthorizationServer } from '../../src/demo/authorization-server.mjs';
import {
  allowBrowsers,
  BASE_SCOPE,
  protectedMcpEndpoint,
  protectedResourceMetadata,
  resourceMetadataUrlOf,
  WRITE_SCOPE,
} from '../../src/demo/protected-endpoint.mjs';
import { dpopProofCheck } from './dpop-proof-check.mjs';

/** A state no sign-in ever sent: what an attacker's forged answer carries. */
export const FORGED_STATE = 'forged-state-from-elsewhere';

/**
 * `authorizationServerCors: false` makes oidc-provider itself answer without any CORS header (its
 * own and the registration opening are stripped from every answer): an authorization server that
 * shuts browser code out, as the extension meets some.
 * @param {{ accessTokenSeconds?: number, authorizationServerCors?: boolean }} [options]
 */
export async function startOidcProtected(options = {}) {
  const rsServer = createServer();
  await new Promise((resolve) => rsServer.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${rsServer.address().port}`;
  const paths = {
    good: '/mcp',
    refuses: '/refuses/mcp',
    notJson: '/not-json/mcp',
    elsewhere: '/elsewhere/mcp',
    plainHttp: '/plain-http/mcp',
    dpop: '/dpop/mcp',
  };
  const urls = Object.fromEntries(Object.entries(paths).map(([key, path]) => [key, `${origin}${path}`]));
  const seen = {
    authorizations: [],
    tokenRequests: [],
    registrations: 0,
    revocations: 0,
    mcp: [],
    dpopVerified: [],
  };
  const grants = new Set();
  let forgeState = false;

  const as = await startAuthorizationServer({
    resources: [
      ...[urls.good, urls.refuses].map((resource) => ({ resource, scopes: [BASE_SCOPE, WRITE_SCOPE] })),
      { resource: urls.dpop, scopes: [BASE_SCOPE, WRITE_SCOPE], tokenFormat: 'jwt' },
    ],
    ...(options.accessTokenSeconds ? { accessTokenSeconds: options.accessTokenSeconds } : {}),
    configure: (provider) =>
      provider.use(async (ctx, next) => {
        await next();
        if (options.authorizationServerCors === false)
          for (const name of Object.keys(ctx.response.headers))
            if (name.startsWith('access-control-')) ctx.remove(name);
        const route = ctx.oidc?.route;
        const params = ctx.oidc?.params ?? {};
        if (route === 'authorization')
          seen.authorizations.push({
            scopes: String(params.scope ?? '')
              .split(' ')
              .filter(Boolean),
            resource: params.resource,
          });
        if (route === 'token')
          seen.tokenRequests.push({ grantType: params.grant_type, resource: params.resource });
        if (route === 'registration' && ctx.method === 'POST') seen.registrations++;
        if (route === 'revocation') seen.revocations++;
        // A forged answer: the redirect back to the client carries a state it never sent.
        const location = ctx.response.get('location');
        const toClient = location && /^https?:/.test(location) && !location.startsWith(`${as?.issuer}/`);
        if (forgeState && toClient && /[?&]state=/.test(location)) {
          const forged = new URL(location);
          forged.searchParams.set('state', FORGED_STATE);
          ctx.redirect(forged.href);
        }
      }),
  });

  const introspect = async (token) => {
    const found = await as.introspect(token);
    if (found) grants.add(found.grantId);
    return found;
  };
  const record = (path) => (request) => seen.mcp.push({ path, ...request });

  const app = express();
  app.use(allowBrowsers);
  const metadata = (path) => resourceMetadataUrlOf(`${origin}${path}`).slice(origin.length);
  app.get(metadata(paths.good), (_req, res) =>
    res.json(protectedResourceMetadata({ resource: urls.good, issuer: as.issuer })),
  );
  app.get(metadata(paths.refuses), (_req, res) =>
    res.json(protectedResourceMetadata({ resource: urls.refuses, issuer: as.issuer })),
  );
  app.get(metadata(paths.notJson), (_req, res) =>
    res.type('html').send('<!doctype html><title>Welcome</title><p>Our new portal is here!</p>'),
  );
  app.get(metadata(paths.elsewhere), (_req, res) =>
    res.json(protectedResourceMetadata({ resource: urls.good, issuer: as.issuer })),
  );
  app.get(metadata(paths.plainHttp), (_req, res) =>
    res.json(protectedResourceMetadata({ resource: urls.plainHttp, issuer: 'http://auth.example.com' })),
  );
  app.use(
    paths.good,
    protectedMcpEndpoint({ resource: urls.good, introspect, onRequest: record(paths.good) }),
  );
  app.use(
    paths.refuses,
    protectedMcpEndpoint({
      resource: urls.refuses,
      introspect,
      refuseEveryToken: true,
      onRequest: record(paths.refuses),
    }),
  );
  const dpopMetadataUrl = resourceMetadataUrlOf(urls.dpop);
  app.get(metadata(paths.dpop), (_req, res) =>
    res.json(protectedResourceMetadata({ resource: urls.dpop, issuer: as.issuer, dpopRequired: true })),
  );
  const proofs = dpopProofCheck({
    resource: urls.dpop,
    issuer: as.issuer,
    resourceMetadataUrl: dpopMetadataUrl,
    onVerified: (verified) => seen.dpopVerified.push(verified),
  });
  app.use(
    paths.dpop,
    protectedMcpEndpoint({
      resource: urls.dpop,
      introspect: proofs.introspect,
      checkFirst: proofs.middleware,
      onRequest: record(paths.dpop),
    }),
  );
  for (const path of [paths.notJson, paths.elsewhere, paths.plainHttp])
    app.use(
      path,
      protectedMcpEndpoint({ resource: `${origin}${path}`, introspect, onRequest: record(path) }),
    );
  rsServer.on('request', app);

  return {
    urls,
    issuer: as.issuer,
    seen,
    /** The next answers of the authorization server carry a state the client never sent. */
    forgeState(on) {
      forgeState = on;
    },
    /** Withdraws every grant a token was seen for (access and refresh tokens die with it). */
    async revokeGrants() {
      for (const grantId of grants) await as.revokeGrant(grantId);
      grants.clear();
    },
    async close() {
      await as.close();
      await new Promise((resolve) => {
        rsServer.closeAllConnections?.();
        rsServer.close(() => resolve());
      });
    },
  };
}
