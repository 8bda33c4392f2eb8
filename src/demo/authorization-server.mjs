/**
 * A local OAuth 2.1 authorization server for MCP, from oidc-provider (a certified OpenID
 * provider): what `npm start` runs for the sign-in demo, and what the OAuth e2e suite signs in at.
 *
 * Configured the way an MCP authorization server is: authorization code with PKCE (S256, required
 * for public clients), RFC 9207 `iss` in answers, RFC 8707 resource indicators (each protected MCP
 * server is a resource with its own scopes; access tokens carry it as their audience), Dynamic
 * Client Registration (open, as MCP clients need it), refresh tokens (for `offline_access`, rotated),
 * revocation. Browser clients call its endpoints from their own origin: discovery, token and
 * revocation answer CORS by themselves; registration is opened to browsers here.
 *
 * The sign-in pages are oidc-provider's development interactions: any login and password is
 * accepted, then a consent page names the client and the scopes. Local use only: everything is in
 * memory and the issuer is plain http on 127.0.0.1.
 */

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider, { errors } from 'oidc-provider';

/**
 * @typedef {object} ProtectedResource
 * @property {string} resource The MCP server's canonical URI (its audience in tokens).
 * @property {string[]} scopes Scopes it knows.
 * @property {'opaque' | 'jwt'} [tokenFormat] Its access tokens: opaque (the default; the resource
 *   asks `introspect`), or JWTs (RFC 9068) it checks itself against the issuer's keys.
 */

/**
 * @param {object} options
 * @param {ProtectedResource[]} options.resources
 * @param {number} [options.port] 0 (default) for any free port.
 * @param {number} [options.accessTokenSeconds] Access token lifetime (default 3600).
 * @param {(provider: import('oidc-provider').default) => void} [options.configure] Extra Koa middleware (tests).
 * @param {(url: string, init: RequestInit) => Promise<Response>} [options.fetchClientMetadata] Accept
 *   Client ID Metadata Documents (https client ids), fetched with this (oidc-provider's own fetch
 *   refuses addresses of this machine, where a test's document is served).
 */
export async function startAuthorizationServer(options) {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const known = new Map(options.resources.map((entry) => [entry.resource, entry]));
  const accessTokenSeconds = options.accessTokenSeconds ?? 3600;

  const provider = new Provider(issuer, {
    // The MCP client registers itself (Dynamic Client Registration); none is configured here.
    clients: [],
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'offline_access'],
    pkce: { required: () => true },
    ...(options.fetchClientMetadata ? { fetch: options.fetchClientMetadata } : {}),
    // Any login names an account of its own (the development sign-in page takes any login).
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    ttl: {
      AccessToken: accessTokenSeconds,
      RefreshToken: 14 * 24 * 3600,
      Interaction: 10 * 60,
      Session: 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
    // Browser clients call the token and revocation endpoints from the origin of their redirect URI;
    // a Chrome extension's redirect URI is https://<id>.chromiumapp.org/..., its calls come from
    // chrome-extension://<id>.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' && client.redirectUris.some((uri) => callerOriginOf(uri) === origin),
    rotateRefreshToken: true,
    // Refresh tokens for every client registered for them. oidc-provider's default wants
    // offline_access with prompt=consent (OpenID Connect's rule for ID tokens); MCP clients are
    // OAuth clients, which ask for offline_access without that prompt.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: true },
      ...(options.fetchClientMetadata
        ? { clientIdMetadataDocument: { enabled: true, ack: 'draft-02' } }
        : {}),
      registration: { enabled: true },
      // A client revokes only its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        // A token is always for one named MCP server: no default audience.
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          const entry = known.get(resourceIndicator);
          if (!entry) throw new errors.InvalidTarget(`${resourceIndicator} is not a resource of this server`);
          return {
            scope: entry.scopes.join(' '),
            audience: entry.resource,
            accessTokenTTL: accessTokenSeconds,
            accessTokenFormat: entry.tokenFormat ?? 'opaque',
          };
        },
      },
    },
  });
  // Requests from any address reach it only through 127.0.0.1; it does not trust proxy headers.
  provider.proxy = false;
  provider.use(openRegistrationToBrowsers(provider));
  options.configure?.(provider);
  server.on('request', provider.callback());

  return {
    issuer,
    provider,
    /** The access token's facts for the resource server, or undefined when unknown, expired or revoked. */
    async introspect(token) {
      const found = await provider.AccessToken.find(token);
      if (!found || found.isExpired) return undefined;
      return {
        clientId: found.clientId,
        scopes: typeof found.scope === 'string' ? found.scope.split(' ').filter(Boolean) : [],
        expiresAt: found.exp,
        audience: Array.isArray(found.aud) ? found.aud : [found.aud],
        grantId: found.grantId,
      };
    },
    /** Revokes one grant and every token made under it, as a person withdrawing access does. */
    async revokeGrant(grantId) {
      await provider.AccessToken.revokeByGrantId(grantId);
      await provider.RefreshToken.revokeByGrantId(grantId);
      await provider.AuthorizationCode.revokeByGrantId(grantId);
      const grant = await provider.Grant.find(grantId);
      await grant?.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The origin a client with this redirect URI calls from (an extension's is its own scheme). */
function callerOriginOf(redirectUri) {
  const url = URL.parse(redirectUri);
  if (!url) return undefined;
  const extension = /^([a-p]{32})\.chromiumapp\.org$/.exec(url.hostname);
  return extension && url.protocol === 'https:' ? `chrome-extension://${extension[1]}` : url.origin;
}

/**
 * oidc-provider answers CORS for discovery, token and revocation but not for registration, which
 * MCP clients in a browser need (the MCP specification makes Dynamic Client Registration their
 * fallback): open it to any origin, as the metadata already is. Registration needs no credentials.
 */
function openRegistrationToBrowsers(provider) {
  return async (ctx, next) => {
    const registration = `${new URL(provider.issuer).pathname.replace(/\/$/, '')}/reg`;
    if (ctx.path !== registration || !ctx.get('origin')) return next();
    ctx.set('Access-Control-Allow-Origin', ctx.get('origin'));
    ctx.set('Vary', 'Origin');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'POST');
      ctx.set('Access-Control-Allow-Headers', ctx.get('access-control-request-headers') || 'content-type');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    return next();
  };
}
