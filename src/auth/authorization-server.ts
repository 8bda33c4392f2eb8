/**
 * Authorization server metadata: RFC 8414 and OpenID Connect Discovery at every location the MCP
 * specification lists, in its order, each document validated by oauth4webapi (its `issuer` must be
 * the issuer the well-known URL was built from, or it is not used). A 2025-03-26 server publishes
 * no metadata at all; for it the default endpoints of that revision stand in.
 */

import * as oauth from 'oauth4webapi';
import { discardBody } from '../transport/index.js';
import { BodyProblem, boundedCopy } from './json-body.js';
import { DiscoveryProblem } from './resource-metadata.js';
import { authorizationServerMetadataUrls, isAllowedEndpoint, isLoopbackHttp } from './urls.js';

/** The metadata fields Toolgate reads, on top of oauth4webapi's own type. */
export type AuthorizationServerMetadata = oauth.AuthorizationServer & {
  client_id_metadata_document_supported?: boolean;
};

interface FoundAuthorizationServer {
  metadata: AuthorizationServerMetadata;
  /** Where it was read; undefined for the 2025-03-26 default endpoints. */
  url?: string;
}

/**
 * Finds and validates an issuer's metadata. Resolves undefined when no location has a document
 * (every answer a 4xx); throws DiscoveryProblem for a document that is broken or names another
 * issuer, or when the server cannot do PKCE with S256.
 */
export async function discoverAuthorizationServer(
  fetchFn: typeof fetch,
  issuer: string,
): Promise<FoundAuthorizationServer | undefined> {
  if (!isAllowedEndpoint(issuer))
    throw new DiscoveryProblem(
      `its authorization server ${issuer} is neither https nor on this machine: codes and tokens would cross the network unencrypted`,
    );
  const expected = new URL(issuer);
  for (const url of authorizationServerMetadataUrls(issuer)) {
    let response: Response;
    try {
      response = await fetchFn(url, { headers: { accept: 'application/json' } });
    } catch (error) {
      throw new DiscoveryProblem(`could not fetch ${url}: ${error instanceof Error ? error.message : error}`);
    }
    if (response.status >= 400 && response.status < 500) {
      await discardBody(response);
      continue;
    }
    if (response.status !== 200) {
      await discardBody(response);
      throw new DiscoveryProblem(`${url} answered HTTP ${response.status}`);
    }
    let metadata: AuthorizationServerMetadata;
    try {
      // Bounded here; oauth4webapi validates the copy (status, JSON object, issuer identity).
      metadata = await oauth.processDiscoveryResponse(expected, await boundedCopy(response));
    } catch (error) {
      throw new DiscoveryProblem(
        `the authorization server metadata at ${url} is unusable: ${problemOf(error)}`,
      );
    }
    checkMetadata(metadata, url);
    return { metadata, url };
  }
  return undefined;
}

/**
 * The endpoints a 2025-03-26 client assumes when a server publishes no metadata: /authorize,
 * /token and /register at the server's origin. That revision required PKCE with S256 of every
 * server, so it is used without being advertised.
 */
export function legacyDefaultEndpoints(serverUrl: URL): FoundAuthorizationServer {
  const origin = serverUrl.origin;
  return {
    metadata: {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    },
  };
}

/** Options for oauth4webapi requests to this server: our fetch, and http only on this machine. */
export function requestOptions(
  fetchFn: typeof fetch,
  endpoint: string | undefined,
): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]?: boolean } {
  return {
    [oauth.customFetch]: fetchFn,
    ...(endpoint && isLoopbackHttp(endpoint) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

function checkMetadata(metadata: AuthorizationServerMetadata, url: string): void {
  if (!metadata.authorization_endpoint)
    throw new DiscoveryProblem(`the metadata at ${url} names no authorization_endpoint`);
  if (!metadata.token_endpoint) throw new DiscoveryProblem(`the metadata at ${url} names no token_endpoint`);
  for (const endpoint of [
    metadata.authorization_endpoint,
    metadata.token_endpoint,
    metadata.registration_endpoint,
    metadata.revocation_endpoint,
  ])
    if (endpoint !== undefined && !isAllowedEndpoint(endpoint))
      throw new DiscoveryProblem(
        `the metadata at ${url} names ${endpoint}, neither https nor on this machine: codes and tokens would cross the network unencrypted`,
      );
  // MCP: no code_challenge_methods_supported means no PKCE, and the client must refuse to go on.
  const methods = metadata.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256'))
    throw new DiscoveryProblem(
      `the authorization server does not advertise PKCE with S256 (code_challenge_methods_supported at ${url}), which MCP requires`,
    );
}

/** oauth4webapi's own messages name the failed check, never a value we sent. */
export function problemOf(error: unknown): string {
  if (error instanceof BodyProblem) return error.message;
  if (error instanceof oauth.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''} (HTTP ${error.status})`;
  // A 401 from a token endpoint comes as a challenge (client authentication failed): its error.
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const challenge = error.cause.find((candidate) => candidate.parameters.error) ?? error.cause[0];
    const code = challenge?.parameters.error ?? `a ${challenge?.scheme ?? 'bare'} challenge`;
    const description = challenge?.parameters.error_description;
    return `${code}${description ? `: ${description}` : ''} (HTTP ${error.status})`;
  }
  if (error instanceof oauth.OperationProcessingError && error.code === oauth.JSON_ATTRIBUTE_COMPARISON)
    return 'its "issuer" is not the issuer it was looked up for';
  return error instanceof Error ? error.message : String(error);
}
