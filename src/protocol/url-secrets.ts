/**
 * Secrets people put in server URLs (`?api_key=…`, `?token=…`, `https://user:pass@host/`) are
 * hidden wherever a URL is shown or stored: error messages, labels, the audit log and its exports.
 *
 * Works on the text, not on a re-serialized URL: a URL without secrets comes back byte for byte
 * (so server ids and log searches keep matching), and text that is not a valid URL is still
 * redacted as far as its shape allows.
 */

import { isSecretName } from './secret-names.js';

/** What a hidden value is shown as. */
export const URL_SECRET_MASK = '***';

/**
 * True when a query or fragment parameter name looks like it holds a credential: `key`, `api_key`,
 * `apiKey`, `access_token`, `X-Amz-Signature`, `sessionId`, `auth`, `password`… (case-insensitive;
 * the one rule of secret-names.ts, applied to the decoded name).
 */
export function isSecretParamName(name: string): boolean {
  return isSecretName(decodeComponent(name));
}

/**
 * `url` with its user info and the values of secret-looking query and fragment parameters
 * replaced by `***`. Everything else is left exactly as it was; never throws.
 */
export function redactUrl(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? undefined : url.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : beforeHash.slice(queryAt + 1);
  return (
    withoutUserInfo(base) +
    (query === undefined ? '' : `?${redactParams(query)}`) +
    (fragment === undefined ? '' : `#${redactParams(fragment)}`)
  );
}

/**
 * URLs with a scheme (`https://…`, `wss://…`) inside free text, such as an error message. A URL
 * serializer escapes spaces, `"`, `<`, `>` and backticks, but not `'` in a path, so a quote ends a
 * URL only when it ends the match (see TRAILING_PUNCTUATION).
 */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"<>`]+/gi;
/** Sentence punctuation right after a URL belongs to the sentence, not to the URL. */
const TRAILING_PUNCTUATION = /[.,:;!?')\]}]+$/;

/** `text` with every URL in it passed through redactUrl. */
export function redactUrlsInText(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (match) => {
    const tail = TRAILING_PUNCTUATION.exec(match)?.[0] ?? '';
    return redactUrl(match.slice(0, match.length - tail.length)) + tail;
  });
}

/** `scheme://user:pass@host/path` becomes `scheme://***@host/path`. */
function withoutUserInfo(base: string): string {
  const schemeEnd = /^[a-z][a-z0-9+.-]*:\/\//i.exec(base)?.[0].length;
  if (schemeEnd === undefined) return base;
  const rest = base.slice(schemeEnd);
  // The authority ends at the path; WHATWG URL also ends it at a backslash for http(s).
  const authorityEnd = rest.search(/[/\\]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  // The last @ ends the user info: a password may itself contain an encoded or bare @.
  const at = authority.lastIndexOf('@');
  if (at === -1 || authority.slice(0, at) === URL_SECRET_MASK) return base;
  return `${base.slice(0, schemeEnd)}${URL_SECRET_MASK}${rest.slice(at)}`;
}

function redactParams(params: string): string {
  if (!params.includes('=')) return params;
  return params
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      if (value !== '' && isSecretParamName(name)) return `${name}=${URL_SECRET_MASK}`;
      return `${name}=${withoutNestedUrlSecrets(value)}`;
    })
    .join('&');
}

/**
 * A parameter value that is itself a percent-encoded URL (`?redirect=https%3A%2F%2F…%3Ftoken%3D…`)
 * carries that URL's secrets too: they are hidden and the value encoded again. Values without
 * such a URL come back as they were.
 */
function withoutNestedUrlSecrets(value: string): string {
  if (!value.includes('%')) return value;
  const decoded = decodeComponent(value);
  if (decoded === value || !decoded.includes('://')) return value;
  const shown = redactUrlsInText(decoded);
  return shown === decoded ? value : encodeURIComponent(shown);
}

/** application/x-www-form-urlencoded decoding that keeps malformed escapes as they are. */
function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A malformed percent-escape is redacted as written.
    return spaced;
  }
}

/**
 * The secret values a URL carries (user info, values of secret-looking parameters), raw and
 * decoded: a server's error page may echo them, so messages quoting its body hide them too.
 */
export function secretsInUrl(url: URL): string[] {
  const found = [url.username, url.password];
  for (const params of [url.search.slice(1), url.hash.slice(1)])
    for (const pair of params.split('&')) {
      const equals = pair.indexOf('=');
      if (equals === -1 || !isSecretParamName(pair.slice(0, equals))) continue;
      const raw = pair.slice(equals + 1);
      found.push(raw, decodeComponent(raw));
    }
  return [...new Set(found.filter((value) => value !== ''))];
}
