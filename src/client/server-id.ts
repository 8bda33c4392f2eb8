/**
 * A server's identity, from its address. Trust, remembered approvals, rules and the audit log are
 * all keyed by the server id, so the id is the whole address that picks the server: scheme, host,
 * port, path and query. `https://h/mcp?tenant=a` and `?tenant=b` are two servers, and so are
 * `http://` and `https://` at one place.
 *
 * Two parts are left out, on purpose: user info (browsers refuse to fetch such URLs, and it is a
 * password) and the values of secret-looking query parameters (`?api_key=`, `?token=`: shown as
 * `***`, as everywhere Toolgate shows or stores a URL). Two addresses that differ only in such a
 * secret are one server id, so the panel keeps one of them at a time.
 *
 * Ids made by earlier versions (host and path only, `h/mcp`) never start with a scheme, so no new id
 * is ever equal to one: settings stored under an old id are not silently given to a new server.
 */

import { redactUrl } from '../protocol/index.js';

/**
 * What a server id is made of, before its secrets are masked: connect() masks it with the URL rule
 * loaded only for an address that may carry a secret (redactUrlWhenNeeded).
 */
export function serverAddress(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}${url.search}`;
}

/** The id of the server at `url`: scheme, host, port, path and query (secrets masked). */
export function serverIdForUrl(url: URL): string {
  return redactUrl(serverAddress(url));
}

/**
 * A short name for the server at `url`, for people: host, port, path and query (secrets masked),
 * without the scheme. Two servers whose names are alike are told apart by their ids
 * (session/server-names.ts).
 */
export function serverLabelForUrl(url: URL): string {
  return redactUrl(`${url.host}${url.pathname === '/' ? '' : url.pathname}${url.search}`);
}
