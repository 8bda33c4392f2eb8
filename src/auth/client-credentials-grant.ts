/**
 * The grants of a host app that acts as itself, loaded with its session only when a host gives
 * client credentials (most never do, and a person's sign-in does not carry this code).
 */

import * as oauth from 'oauth4webapi';
import { problemOf } from './authorization-server.js';
import { clientAuthentication } from './client-identity.js';
import { requestTokens, TokenProblem, type TokenRequestBase, type TokenSet } from './tokens.js';

/**
 * A grant that needs no person: client credentials (the client acts as itself, authenticated by
 * its secret or its signed JWT), or a JWT bearer assertion (RFC 7523: a workload identity token,
 * an enterprise identity provider's ID-JAG) when `assertion` is given. Same `resource` and DPoP
 * rules as the code flow; no refresh token is expected (a new one is asked for instead).
 */
export async function machineGrant(
  options: TokenRequestBase & {
    resource: string;
    scopes: string[];
    /** A JWT bearer assertion for the grant; absent, the client_credentials grant. */
    assertion?: string;
  },
): Promise<TokenSet> {
  const { as, registered } = options;
  const grant = options.assertion === undefined ? 'client credentials' : 'JWT bearer';
  const parameters: Record<string, string> = { resource: options.resource };
  if (options.scopes.length > 0) parameters.scope = options.scopes.join(' ');
  if (options.assertion !== undefined) parameters.assertion = options.assertion;
  try {
    return await requestTokens({
      ...options,
      requestedScopes: options.scopes,
      send: (requestOptions) =>
        options.assertion === undefined
          ? oauth.clientCredentialsGrantRequest(
              as,
              registered.client,
              clientAuthentication(registered, as),
              parameters,
              requestOptions,
            )
          : oauth.genericTokenEndpointRequest(
              as,
              registered.client,
              clientAuthentication(registered, as),
              JWT_BEARER_GRANT,
              parameters,
              requestOptions,
            ),
      process: (response) => oauth.processGenericTokenEndpointResponse(as, registered.client, response),
    });
  } catch (error) {
    if (error instanceof TokenProblem) throw error;
    throw new TokenProblem(`${as.token_endpoint} refused the ${grant} grant: ${problemOf(error)}`);
  }
}

/** RFC 7523 §2.1. */
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
