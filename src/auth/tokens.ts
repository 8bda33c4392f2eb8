/**
 * Access tokens as Toolgate keeps them: bound to the resource and the issuer they were issued for,
 * with what was asked for and what was granted, and, for a DPoP-bound token, the thumbprint of
 * the key it is bound to. The grants themselves (authorization code with PKCE, refresh,
 * revocation; client credentials in client-credentials-grant.ts) are oauth4webapi's; this file only calls it and reads its
 * answers. Token requests carry a DPoP proof when the DPoP policy they are given says so (dpop.ts);
 * requestTokens is the one path every grant's request takes.
 */

import * as oauth from 'oauth4webapi';
import { type AuthorizationServerMetadata, problemOf, requestOptions } from './authorization-server.js';
import { clientAuthentication, type RegisteredClient } from './client-identity.js';
import { type DPoPKey, type DPoPPolicy, withNonceRetry } from './dpop.js';
import { boundedCopy } from './json-body.js';
import { splitScopes } from './www-authenticate.js';

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds; undefined when the server gave no lifetime. */
  expiresAt?: number;
  /** When to refresh instead of sending it: a minute before expiry, or a quarter of a short lifetime. */
  refreshAt?: number;
  /** What was asked for in the authorization request (the base of a later scope union). */
  requestedScopes: string[];
  /** What the server says it granted, else what was asked for. */
  grantedScopes: string[];
  issuer: string;
  resource: string;
  clientId: string;
  /** `DPoP` for a token bound to a key of this page (RFC 9449); absent for a bearer token. */
  tokenType?: 'DPoP';
  /** The thumbprint of the key a DPoP-bound token is bound to. */
  dpopJkt?: string;
}

export class TokenProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenProblem';
  }
}

/** How long before expiry a token is refreshed instead of sent (at most a quarter of its life). */
const REFRESH_MARGIN_MS = 60_000;

export function expiresSoon(tokens: TokenSet, now = Date.now()): boolean {
  const at = tokens.refreshAt ?? tokens.expiresAt;
  return at !== undefined && at <= now;
}

/** What every token request is given, and what its TokenSet records besides the answer. */
export interface TokenRequestBase {
  as: AuthorizationServerMetadata;
  registered: RegisteredClient;
  fetchFn: typeof fetch;
  /** The layer's DPoP policy: a proof goes with the request when it says so. */
  dpop?: DPoPPolicy | undefined;
}

/**
 * One token request, as every grant sends it: with a DPoP proof when the policy says so (sent
 * again once when the server asks for a nonce), the answer read within bounds and checked by
 * oauth4webapi (`process`), then kept as a TokenSet bound to the key it was proven with.
 * `send` makes the grant's request with the options given (fetch, TLS rule, proof).
 */
export async function requestTokens(
  options: TokenRequestBase & {
    /** What the token is asked for (the issuer and client are those of the request). */
    resource: string;
    requestedScopes: string[];
    send: (requestOptions: oauth.TokenEndpointRequestOptions) => Promise<Response>;
    process: (response: Response) => Promise<oauth.TokenEndpointResponse>;
  },
): Promise<TokenSet> {
  const { as } = options;
  const dpop = await options.dpop?.forTokenRequest(as);
  const answer = await withNonceRetry(dpop, async () => {
    const response = await options.send({
      ...requestOptions(options.fetchFn, as.token_endpoint),
      ...(dpop ? { DPoP: dpop.handle } : {}),
    });
    return options.process(await boundedCopy(response));
  });
  return tokenSetOf(
    answer,
    {
      issuer: as.issuer,
      resource: options.resource,
      clientId: options.registered.client.client_id,
      requestedScopes: options.requestedScopes,
    },
    dpop,
  );
}

/** Exchanges a validated authorization response for tokens (the code, the PKCE verifier, `resource`). */
export async function exchangeCode(
  options: TokenRequestBase & {
    callbackParameters: URLSearchParams;
    redirectUri: string;
    codeVerifier: string;
    resource: string;
    requestedScopes: string[];
  },
): Promise<TokenSet> {
  const { as, registered } = options;
  try {
    return await requestTokens({
      ...options,
      send: (requestOptions) =>
        oauth.authorizationCodeGrantRequest(
          as,
          registered.client,
          clientAuthentication(registered, as),
          options.callbackParameters,
          options.redirectUri,
          options.codeVerifier,
          { ...requestOptions, additionalParameters: { resource: options.resource } },
        ),
      process: (response) => oauth.processAuthorizationCodeResponse(as, registered.client, response),
    });
  } catch (error) {
    throw new TokenProblem(`${as.token_endpoint} did not issue tokens: ${problemOf(error)}`);
  }
}

/** Refreshes with the refresh token (rotated if the server sends a new one), same `resource`. */
export async function refresh(options: TokenRequestBase & { tokens: TokenSet }): Promise<TokenSet> {
  const { as, registered, tokens } = options;
  const refreshToken = tokens.refreshToken;
  if (!refreshToken) throw new TokenProblem('there is no refresh token');
  try {
    // A DPoP-bound refresh token is bound to the same key (the one for this authorization server).
    const next = await requestTokens({
      ...options,
      resource: tokens.resource,
      requestedScopes: tokens.requestedScopes,
      send: (requestOptions) =>
        oauth.refreshTokenGrantRequest(
          as,
          registered.client,
          clientAuthentication(registered, as),
          refreshToken,
          {
            ...requestOptions,
            additionalParameters: { resource: tokens.resource },
          },
        ),
      process: (response) => oauth.processRefreshTokenResponse(as, registered.client, response),
    });
    if (!next.refreshToken && tokens.refreshToken) next.refreshToken = tokens.refreshToken;
    return next;
  } catch (error) {
    throw new TokenProblem(`${as.token_endpoint} did not refresh the token: ${problemOf(error)}`);
  }
}

/** Revokes the refresh token (which ends the grant) or else the access token; best effort. */
export async function revoke(options: {
  as: AuthorizationServerMetadata;
  registered: RegisteredClient;
  tokens: TokenSet;
  fetchFn: typeof fetch;
}): Promise<boolean> {
  const { as, registered, tokens } = options;
  if (!as.revocation_endpoint) return false;
  try {
    const response = await oauth.revocationRequest(
      as,
      registered.client,
      clientAuthentication(registered, as),
      tokens.refreshToken ?? tokens.accessToken,
      requestOptions(options.fetchFn, as.revocation_endpoint),
    );
    await oauth.processRevocationResponse(response);
    return true;
  } catch {
    // Revocation is a courtesy: the tokens are forgotten here whatever the server says, and the caller reports the result.
    return false;
  }
}

/** The answer of a token endpoint as a TokenSet; `dpop` is the key its request was proven with. */
function tokenSetOf(
  answer: oauth.TokenEndpointResponse,
  base: Pick<TokenSet, 'issuer' | 'resource' | 'clientId' | 'requestedScopes'>,
  dpop?: DPoPKey,
): TokenSet {
  // oauth4webapi lower-cases token_type. A server that ignored the proof issues a bearer token.
  const bound = answer.token_type === 'dpop';
  if (bound && !dpop)
    throw new TokenProblem('the server issued a DPoP-bound token, which this sign-in did not ask for');
  if (!bound && answer.token_type !== 'bearer')
    throw new TokenProblem(
      `the server issued a ${answer.token_type} token; Toolgate sends bearer and DPoP tokens only`,
    );
  const granted = typeof answer.scope === 'string' ? splitScopes(answer.scope) : base.requestedScopes;
  return {
    ...(bound && dpop ? { tokenType: 'DPoP' as const, dpopJkt: dpop.jkt } : {}),
    accessToken: answer.access_token,
    ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
    ...lifetime(answer.expires_in),
    requestedScopes: base.requestedScopes,
    grantedScopes: granted,
    issuer: base.issuer,
    resource: base.resource,
    clientId: base.clientId,
  };
}

function lifetime(expiresIn: number | undefined): Pick<TokenSet, 'expiresAt' | 'refreshAt'> {
  if (typeof expiresIn !== 'number') return {};
  const now = Date.now();
  const life = expiresIn * 1000;
  return { expiresAt: now + life, refreshAt: now + life - Math.min(REFRESH_MARGIN_MS, life / 4) };
}
