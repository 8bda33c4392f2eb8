/**
 * oidc-provider with the client_credentials grant and resource indicators, two clients registered
 * beforehand (`secret-app`: client_secret_basic; `key-app`: private_key_jwt with the public key
 * given, kid `key-app-1`), in front of an MCP server built with the official SDK that requires
 * tokens for its resource (src/demo/protected-endpoint.mjs). For src/auth/client-credentials-oidc.test.ts.
 */

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import express from 'express';
import { errors, Provider } from 'oidc-provider';
import {
  BASE_SCOPE,
  protectedMcpEndpoint,
  protectedResourceMetadata,
  resourceMetadataUrlOf,
  WRITE_SCOPE,
} from '../../src/demo/protected-endpoint.mjs';

const listen = (server) =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );

/**
 * @param {{ publicJwk: JsonWebKey, secret: string, tokenSeconds?: number }} options
 */
export async function startClientCredentials({ publicJwk, secret, tokenSeconds = 3600 }) {
  const asServer = createServer();
  const rsServer = createServer();
  const issuer = await listen(asServer);
  const origin = await listen(rsServer);
  const resource = `${origin}/mcp`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'secret-app',
        client_secret: secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: 'key-app',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ES256',
        jwks: { keys: [{ ...publicJwk, kid: 'key-app-1', use: 'sig' }] },
      },
    ],
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    ttl: { ClientCredentials: tokenSeconds },
    features: {
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`${indicator} is not a resource here`);
          return {
            scope: `${BASE_SCOPE} ${WRITE_SCOPE}`,
            audience: resource,
            accessTokenFormat: 'opaque',
            accessTokenTTL: tokenSeconds,
          };
        },
      },
    },
  });
  /** @type {{ clientId: string | undefined, assertion: boolean }[]} */
  const tokenRequests = [];
  provider.on('grant.success', (ctx) => {
    tokenRequests.push({
      clientId: ctx.oidc.client?.clientId,
      assertion: typeof ctx.oidc.params?.client_assertion === 'string',
    });
  });
  asServer.on('request', provider.callback());
  const issued = new Set();
  const introspect = async (token) => {
    const found = await provider.ClientCredentials.find(token);
    if (!found || found.isExpired) return undefined;
    issued.add(token);
    return {
      clientId: found.clientId,
      scopes: typeof found.scope === 'string' ? found.scope.split(' ').filter(Boolean) : [],
      expiresAt: found.exp,
      audience: [found.aud].flat(),
    };
  };
  const app = express();
  app.get(new URL(resourceMetadataUrlOf(resource)).pathname, (_req, res) =>
    res.json(protectedResourceMetadata({ resource, issuer })),
  );
  /** @type {{ authorization: string | null }[]} */
  const mcpRequests = [];
  app.use(
    '/mcp',
    protectedMcpEndpoint({ resource, introspect, onRequest: (request) => mcpRequests.push(request) }),
  );
  rsServer.on('request', app);
  return {
    url: resource,
    tokenRequests,
    mcpRequests,
    revokeAll: async () => {
      for (const token of issued) await (await provider.ClientCredentials.find(token))?.destroy();
    },
    close: async () => {
      for (const server of [asServer, rsServer]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}
