/**
 * The resource server's half of DPoP (RFC 9449 §7), for a test MCP server that takes only
 * DPoP-bound tokens: its tokens are JWTs (RFC 9068) and oauth4webapi's validateJwtAccessToken
 * checks all of it (the token's signature against the issuer's published keys, its issuer and
 * audience, and the DPoP proof: signed by the key the token is bound to (`cnf.jkt`), for this
 * method and URL, carrying the token's hash, made just now). A request that passes goes on to the
 * SDK's bearer check (scopes, expiry) as `Bearer <token>`, with what was found kept for it; any
 * other answer is a DPoP challenge. Every verified request is reported, so a test proves from the
 * server side which key proved which token.
 */

import * as oauth from 'oauth4webapi';

/** The issuer is plain http on 127.0.0.1 in tests. */
const LOCAL = { [oauth.allowInsecureRequests]: true };

/**
 * @param {object} options
 * @param {string} options.resource The server's canonical URI (the tokens' audience).
 * @param {string} options.issuer Its authorization server.
 * @param {string} options.resourceMetadataUrl Named in every challenge.
 * @param {(verified: { token: string, jkt: string }) => void} options.onVerified
 */
export function dpopProofCheck({ resource, issuer, resourceMetadataUrl, onVerified }) {
  /** @type {Promise<oauth.AuthorizationServer> | undefined} */
  let metadata;
  const authorizationServer = () => {
    metadata ??= oauth
      .discoveryRequest(new URL(issuer), { ...LOCAL, algorithm: 'oidc' })
      .then((response) => oauth.processDiscoveryResponse(new URL(issuer), response));
    metadata.catch(() => {
      metadata = undefined;
    });
    return metadata;
  };
  /** What the checked tokens say, for the bearer check's `introspect`. */
  const checked = new Map();

  const challenge = (res, error) => {
    const described = error
      ? `, error="invalid_token", error_description="${error.replace(/["\\]/g, "'")}"`
      : '';
    res
      .status(401)
      .set('WWW-Authenticate', `DPoP algs="ES256"${described}, resource_metadata="${resourceMetadataUrl}"`)
      .json({ error: 'invalid_token' });
  };

  /** @type {import('express').RequestHandler} */
  const middleware = async (req, res, next) => {
    if (!req.headers.authorization) return challenge(res);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const request = new Request(new URL(req.originalUrl, new URL(resource).origin), {
      method: req.method,
      headers,
    });
    let claims;
    try {
      claims = await oauth.validateJwtAccessToken(await authorizationServer(), request, resource, {
        ...LOCAL,
        requireDPoP: true,
      });
    } catch (error) {
      return challenge(res, error instanceof Error ? error.message : String(error));
    }
    const token = req.headers.authorization.replace(/^DPoP +/i, '');
    checked.set(token, {
      clientId: claims.client_id,
      scopes: typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [],
      expiresAt: claims.exp,
      audience: Array.isArray(claims.aud) ? claims.aud : [claims.aud],
    });
    onVerified({ token, jkt: /** @type {{ jkt: string }} */ (claims.cnf).jkt });
    // The proof is checked: the SDK's bearer check sees the token as it knows tokens.
    req.headers.authorization = `Bearer ${token}`;
    next();
  };
  return { middleware, introspect: async (token) => checked.get(token) };
}
