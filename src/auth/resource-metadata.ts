/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for an MCP server: read from the URL its 401
 * named, else from the well-known locations in the MCP order. Not finding any document is an
 * answer of its own (a 2025-03-26 server, which predates PRM); finding a broken one is an error.
 */

import { discardBody } from '../transport/index.js';
import { BodyProblem, readJsonObject } from './json-body.js';
import { isAllowedEndpoint, protectedResourceMetadataUrls } from './urls.js';

interface ProtectedResourceMetadata {
  /** The resource identifier exactly as published: it is sent verbatim as `resource`. */
  resource: string;
  /** At least one issuer identifier. */
  authorizationServers: string[];
  scopesSupported?: string[];
  /** `dpop_bound_access_tokens_required` (RFC 9728 §2): the resource takes only DPoP-bound tokens. */
  dpopBoundTokensRequired?: true;
}

/** Where a document was read, with what it said. */
interface FoundResourceMetadata {
  url: string;
  metadata: ProtectedResourceMetadata;
}

export class DiscoveryProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscoveryProblem';
  }
}

/** Validates a parsed PRM document: a string describing the first problem, or the metadata. */
export function parseProtectedResourceMetadata(value: unknown): ProtectedResourceMetadata | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object';
  const document = value as Record<string, unknown>;
  const {
    resource,
    authorization_servers: servers,
    scopes_supported: scopes,
    dpop_bound_access_tokens_required: dpopRequired,
  } = document;
  if (typeof resource !== 'string' || resource.length === 0) return 'it has no "resource" string';
  if (!Array.isArray(servers) || servers.length === 0)
    return 'it lists no "authorization_servers" (the MCP specification requires at least one)';
  if (!servers.every((server) => typeof server === 'string' && server.length > 0))
    return '"authorization_servers" holds something other than issuer URLs';
  const metadata: ProtectedResourceMetadata = { resource, authorizationServers: servers as string[] };
  if (scopes !== undefined) {
    if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string'))
      return '"scopes_supported" is not a list of strings';
    metadata.scopesSupported = [...new Set(scopes as string[])].filter((scope) => scope.length > 0);
  }
  // RFC 9728 §2: a JSON boolean, false when absent; anything else is a broken document.
  if (dpopRequired !== undefined && typeof dpopRequired !== 'boolean')
    return '"dpop_bound_access_tokens_required" is not true or false';
  if (dpopRequired === true) metadata.dpopBoundTokensRequired = true;
  return metadata;
}

/**
 * Finds the server's PRM. `named` is the URL from WWW-Authenticate: when present it is the only
 * place looked at (the specification's rule). Resolves undefined when no well-known location has
 * a document (HTTP 404 or another 4xx); throws DiscoveryProblem for a document that is broken.
 */
export async function discoverResourceMetadata(
  fetchFn: typeof fetch,
  serverUrl: URL,
  named: string | undefined,
): Promise<FoundResourceMetadata | undefined> {
  if (named !== undefined) {
    let url: URL;
    try {
      url = new URL(named, serverUrl);
    } catch {
      // The server's own words are wrong: say so, naming what it sent.
      throw new DiscoveryProblem(`the server named a resource metadata URL that does not parse: ${named}`);
    }
    if (!isAllowedEndpoint(url))
      throw new DiscoveryProblem(
        `the resource metadata URL ${url.href} is neither https nor on this machine`,
      );
    const found = await readAt(fetchFn, url.href);
    if (!found) throw new DiscoveryProblem(`no resource metadata at ${url.href}, the URL the server named`);
    return found;
  }
  for (const url of protectedResourceMetadataUrls(serverUrl)) {
    const found = await readAt(fetchFn, url);
    if (found) return found;
  }
  return undefined;
}

async function readAt(fetchFn: typeof fetch, url: string): Promise<FoundResourceMetadata | undefined> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new DiscoveryProblem(`could not fetch ${url}: ${reason(error)}`);
  }
  if (response.status >= 400 && response.status < 500) {
    await discardBody(response);
    return undefined;
  }
  if (response.status !== 200) {
    await discardBody(response);
    throw new DiscoveryProblem(`${url} answered HTTP ${response.status}`);
  }
  let json: unknown;
  try {
    json = await readJsonObject(response);
  } catch (error) {
    throw new DiscoveryProblem(`the resource metadata at ${url} is unusable: ${reason(error)}`);
  }
  const metadata = parseProtectedResourceMetadata(json);
  if (typeof metadata === 'string')
    throw new DiscoveryProblem(`the resource metadata at ${url} is unusable: ${metadata}`);
  return { url, metadata };
}

function reason(error: unknown): string {
  if (error instanceof BodyProblem || error instanceof DiscoveryProblem) return error.message;
  return error instanceof Error ? error.message : String(error);
}
