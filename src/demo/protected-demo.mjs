/**
 * `npm start`'s sign-in demo: a protected MCP server on the demo's own origin (at /protected/mcp,
 * official SDK, bearer tokens required for that resource) and a local authorization server for it
 * (oidc-provider on its own port of 127.0.0.1), so the demo page shows the whole sign-in with no
 * outside service: the 401, the "Sign in" prompt, oidc-provider's login and consent pages in a
 * popup, the callback page, then tools that need a scope the first sign-in did not ask for.
 */

import { startAuthorizationServer } from './authorization-server.mjs';
import {
  BASE_SCOPE,
  protectedServerHandler,
  resourceMetadataUrlOf,
  WRITE_SCOPE,
} from './protected-endpoint.mjs';

export const PROTECTED_PATH = '/protected/mcp';

/**
 * @param {{ origin: string, authPort?: number }} options origin: the demo's (http://127.0.0.1:PORT).
 */
export async function startProtectedDemo({ origin, authPort = 0 }) {
  const resource = `${origin}${PROTECTED_PATH}`;
  const as = await startAuthorizationServer({
    port: authPort,
    resources: [{ resource, scopes: [BASE_SCOPE, WRITE_SCOPE] }],
  });
  const metadataPath = new URL(resourceMetadataUrlOf(resource)).pathname;
  const handle = protectedServerHandler({
    resource,
    issuer: as.issuer,
    introspect: (token) => as.introspect(token),
    name: 'Toolgate protected demo',
  });

  return {
    url: resource,
    issuer: as.issuer,
    /** Whether a request path is this demo's (its MCP endpoint or its resource metadata). */
    handles: (path) =>
      path === metadataPath || path === PROTECTED_PATH || path.startsWith(`${PROTECTED_PATH}/`),
    handle,
    close: () => as.close(),
  };
}
