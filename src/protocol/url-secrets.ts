/**
 * Secrets people put in server URLs (`?api_key=…`, `?token=…`, `https://user:pass@host/`) are
 * hidden wherever a URL is shown or stored: error messages, labels, the audit log and its exports.
 *
 * Works on the text, not on a re-serialized URL: a URL without secrets comes back byte for byte
 * (so server ids and log searches keep matching), and text that is not a valid URL is still
 * redacted as far as its shape allows.
 */

/** What a hidden value is shown as. */
export const URL_SECRET_MASK = '***';

/** Words of a parameter name that mark its value as a secret. */
const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'auth',
  'authorization',
  'secret',
  'password',
  'passwd',
  'pwd',
  'sig',
  'signature',
  'credential',
  'credentials',
  'session',
  'sessionid',
]);

/** Run-together names (`accesstoken`, `clientsecret`, `xapikey`) end with one of these. */
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'apikey', 'signature'];

/**
 * True when a query or fragment parameter name looks like it holds a credential: `key`, `api_key`,
 * `apiKey`, `access_token`, `X-Amz-Signature`, `sessionId`, `auth`, `password`… (case-insensitive).
 */
export function isSecretParamName(name: string): boolean {
  const decoded = decodeComponent(name);
  // Both readings count: `keyId` is key + id in camelCase, while `keY` is just odd capitals of key.
  const words = [...wordsOf(decoded), ...wordsOf(decoded.replace(/([a-z0-9])([A-Z])/g, '$1 $2'))];
  return words.some(
    (word) => SECRET_WORDS.has(word) || SECRET_SUFFIXES.some((suffix) => word.endsWith(suffix)),
  );
}

function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
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
      return value !== '' && isSecretParamName(name) ? `${name}=${URL_SECRET_MASK}` : pair;
    })
    .join('&');
}

/** application/x-www-form-urlencoded decoding that keeps malformed escapes as they are. */
function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
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
