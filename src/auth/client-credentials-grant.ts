/**
 * The grants of a host app that acts as itself, loaded with its session only when a host gives
 * client credentials (most never do, and a person's sign-in does not carry this code).
 */

import * as oauth from 'oauth4webapi';
import { type AuthorizationServerMetadata, problemOf, requestOptions } from './authorization-server.js';
import { clientAuthentication, type RegisteredClient } from './client-identity.js';
import { type DPoPPolicy, policyOf, withNonceRetry } from './dpop.js';
import { boundedCopy } from './json-body.js';
import { TokenProblem, type TokenSet, tokenSetOf } from './tokens.js';

/**
 * A grant that needs no person: client credentials (the client acts as itself, authenticated by
 * its secret or its signed JWT), or a JWT bearer assertion (RFC 7523: a workload identity token,
 * an enterprise identity provider's ID-JAG) when `assertion` is given. Same `resource` and DPoP
 * rules as the code flow; no refresh token is expected (a new one is asked for instead).
 */
export async function machineGrant(options: {
  as: AuthorizationServerMetadata;
  registered: RegisteredClient;
  resource: string;
  scopes: string[];
  /** A JWT bearer assertion for the grant; absent, the client_credentials grant. */
  assertion?: string;
  fetchFn: typeof fetch;
  dpop?: DPoPPolicy;
}): Promise<TokenSet> {
  const { as, registered } = options;
  const grant = options.assertion === undefined ? 'client credentials' : 'JWT bearer';
  try {
    const dpop = await (options.dpop ?? policyOf(options.fetchFn))?.forTokenRequest(as);
    const parameters: Record<string, string> = { resource: options.resource };
    if (options.scopes.length > 0) parameters.scope = options.scopes.join(' ');
    if (options.assertion !== undefined) parameters.assertion = options.assertion;
    const answer = await withNonceRetry(dpop, async () => {
      const requestOptionsWithProof = {
        ...requestOptions(options.fetchFn, as.token_endpoint),
        ...(dpop ? { DPoP: dpop.handle } : {}),
      };
      const response =
        options.assertion === undefined
          ? await oauth.clientCredentialsGrantRequest(
              as,
              registered.client,
              clientAuthentication(registered, as),
              parameters,
              requestOptionsWithProof,
            )
          : await oauth.genericTokenEndpointRequest(
              as,
              registered.client,
              clientAuthentication(registered, as),
              JWT_BEARER_GRANT,
              parameters,
              requestOptionsWithProof,
            );
      return oauth.processGenericTokenEndpointResponse(as, registered.client, await boundedCopy(response));
    });
    return tokenSetOf(
      answer,
      {
        issuer: as.issuer,
        resource: options.resource,
        clientId: registered.client.client_id,
        requestedScopes: options.scopes,
      },
      dpop,
    );
  } catch (error) {
    if (error instanceof TokenProblem) throw error;
    throw new TokenProblem(`${as.token_endpoint} refused the ${grant} grant: ${problemOf(error)}`);
  }
}

/** RFC 7523 §2.1. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
