/**
 * From an MCP server to the authorization server that issues its tokens: its Protected Resource
 * Metadata (the server's own word, whose `resource` must cover the server), then that
 * authorization server's metadata; a 2025-03-26 server (no PRM anywhere) has its authorization
 * server at its own origin, or the default endpoints of that revision. The same steps as
 * AuthSession's discovery, as a function the sessions without a person (client credentials)
 * share.
 */

import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  legacyDefaultEndpoints,
} from './authorization-server.js';
import { DiscoveryProblem, discoverResourceMetadata } from './resource-metadata.js';
import { authorizationServerMetadataUrls, canonicalResourceUri, resourceCoversServer } from './urls.js';

/** Where a server's tokens come from. */
export interface Discovery {
  issuer: string;
  as: AuthorizationServerMetadata;
  /** The resource indicator to ask tokens for (RFC 8707), as the PRM names it. */
  resource: string;
  /** The PRM's scopes_supported, when it lists any. */
  resourceScopes?: string[];
  /** The PRM says `dpop_bound_access_tokens_required`: only DPoP-bound tokens are taken. */
  dpopRequired?: true;
}

/**
 * Discovers the authorization server of `serverUrl`, reading `named` (a challenge's
 * resource_metadata) first. Of several authorization servers, the first of `preferredIssuers`
 * listed is chosen (RFC 9728 §7.6 leaves the choice to the client), else the first listed.
 * Throws DiscoveryProblem naming the URL that failed.
 */
export async function discoverAuthorization(
  fetchFn: typeof fetch,
  serverUrl: URL,
  named: string | undefined,
  preferredIssuers: readonly string[] = [],
): Promise<Discovery> {
  const prm = await discoverResourceMetadata(fetchFn, serverUrl, named);
  if (!prm) {
    const as =
      (await discoverAuthorizationServer(fetchFn, serverUrl.origin)) ?? legacyDefaultEndpoints(serverUrl);
    return { issuer: as.metadata.issuer, as: as.metadata, resource: canonicalResourceUri(serverUrl) };
  }
  const { resource, authorizationServers, scopesSupported, dpopBoundTokensRequired } = prm.metadata;
  if (!resourceCoversServer(resource, serverUrl))
    throw new DiscoveryProblem(
      `the resource metadata at ${prm.url} is for ${resource}, not for this server: a token asked for it could be used elsewhere, so none is asked for`,
    );
  const issuer =
    authorizationServers.find((candidate) => preferredIssuers.includes(candidate)) ??
    (authorizationServers[0] as string);
  const as = await discoverAuthorizationServer(fetchFn, issuer);
  if (!as)
    throw new DiscoveryProblem(
      `no authorization server metadata for ${issuer} at ${authorizationServerMetadataUrls(issuer).join(', ')}`,
    );
  return {
    issuer: as.metadata.issuer,
    as: as.metadata,
    resource,
    ...(scopesSupported ? { resourceScopes: scopesSupported } : {}),
    ...(dpopBoundTokensRequired ? { dpopRequired: true as const } : {}),
  };
}
