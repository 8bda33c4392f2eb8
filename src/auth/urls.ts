/**
 * The URLs of MCP authorization: the canonical resource URI of a server (RFC 8707 as the MCP
 * specification defines it), where Protected Resource Metadata and authorization server metadata
 * are looked for, in the specification's order, and which resource a server may claim.
 */

import { isLoopbackHost } from '../transport/index.js';

const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';
const OAUTH_WELL_KNOWN = '/.well-known/oauth-authorization-server';
const OIDC_WELL_KNOWN = '/.well-known/openid-configuration';

/**
 * The canonical URI of an MCP server: lower-case scheme and host (URL does that), no fragment, no
 * trailing slash on a bare origin. The query is dropped: it may hold a secret (`?api_key=`) and a
 * token audience never depends on it.
 */
export function canonicalResourceUri(serverUrl: string | URL): string {
  const url = new URL(serverUrl);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${path}`;
}

/** RFC 9728 well-known locations for a server, in the MCP order: path-specific first, then root. */
export function protectedResourceMetadataUrls(serverUrl: string | URL): string[] {
  const url = new URL(serverUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const root = `${url.origin}${PRM_WELL_KNOWN}`;
  return path ? [`${root}${path}`, root] : [root];
}

/** Where an issuer's metadata may be, in the order the MCP specification requires. */
export function authorizationServerMetadataUrls(issuer: string | URL): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  if (!path) return [`${url.origin}${OAUTH_WELL_KNOWN}`, `${url.origin}${OIDC_WELL_KNOWN}`];
  return [
    `${url.origin}${OAUTH_WELL_KNOWN}${path}`,
    `${url.origin}${OIDC_WELL_KNOWN}${path}`,
    `${url.origin}${path}${OIDC_WELL_KNOWN}`,
  ];
}

/**
 * Whether a Protected Resource Metadata `resource` may stand for this server: same origin, and the
 * server's path is the resource's path or below it (whole segments), as a root PRM naming the
 * origin stands for every server on it. Anything else would let a server obtain tokens meant for
 * another resource.
 */
export function resourceCoversServer(resource: string, serverUrl: string | URL): boolean {
  let claimed: URL;
  try {
    claimed = new URL(resource);
  } catch {
    // A resource that is not a URL covers nothing.
    return false;
  }
  const server = new URL(serverUrl);
  if (claimed.hash || claimed.origin !== server.origin) return false;
  const claimedPath = claimed.pathname.replace(/\/+$/, '');
  const serverPath = server.pathname.replace(/\/+$/, '');
  return serverPath === claimedPath || serverPath.startsWith(`${claimedPath}/`);
}

/** https, or plain http to this machine only: OAuth endpoints carry codes, secrets and tokens. */
export function isAllowedEndpoint(url: string | URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // An endpoint that is not a URL is not allowed.
    return false;
  }
  if (parsed.username || parsed.password) return false;
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
}

/** Plain http allowed for this URL (oauth4webapi refuses http unless told, per request). */
export function isLoopbackHttp(url: string | URL): boolean {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname);
}
