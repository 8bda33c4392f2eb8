/**
 * The one rule for names that hold credentials, used everywhere a name sits next to a value: URL
 * query and fragment parameters, argument and result keys, header pairs (`{name, value}`), env
 * maps, `NAME=value` and `--flag value` in command lines.
 *
 * A name is cut into words at separators (`_`, `-`, `.`, spaces…), at camelCase boundaries and at
 * SCREAMING_CASE ones, case ignored; it is secret when one of its words is a credential word. Whole
 * words, never substrings: `keyboard`, `monkey`, `passage`, `bypass`, `path`, `pattern`, `author`,
 * `authority`, `design`, `signal`, `tokenizer` and `secretary` say nothing about credentials, while
 * `api_key`, `AWS_SECRET_ACCESS_KEY`, `GITHUB_PAT`, `auth_header`, `x-api-key`, `sessionId` do.
 *
 * Three refinements keep the log readable where a whole-word rule would hide ordinary data:
 * - A name that ends with a word describing the secret rather than holding it (`token_type`,
 *   `auth_url`, `secret_name`, `key_id`, `password_length`, `cookie_domain`, `expires_in`) is not
 *   secret; `session_id` still is, since a session id is the credential itself.
 * - `key` after a word that makes it a database or keyboard key (`sort_key`, `primary_key`,
 *   `cache_key`, `idempotency_key`, `press_key`, `public_key`) is not secret; a bare `key` is.
 * - `PWD` and `OLDPWD`, spelt exactly so, are the shell's working directory, not a password.
 * - `token` after a word that makes it a place marker (`progressToken`, `next_token`, `pageToken`)
 *   is not secret; a bare `token` is.
 * - `tokens` (plural) is not a credential word: in LLM tools it counts tokens (`max_tokens`,
 *   `input_tokens`); a list of real tokens is still caught by their shapes (value rules).
 *
 * Run-together names (`accesstoken`, `clientsecret`, `dbpassword`, `xapikey`, `phpsessid`) are
 * caught by the endings that cannot mean anything else; a run-together `githubpat` is not (too many
 * words end in `pat`), so its value is left to the value rules (token prefixes) instead.
 */

/** Words that, anywhere in a name, say the value is a credential. */
const SECRET_WORDS = new Set([
  'auth',
  'authn',
  'authz',
  'oauth',
  'authorization',
  'authorisation',
  'authentication',
  'token',
  'key',
  'keys',
  'apikey',
  'secret',
  'secrets',
  'pass',
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'pwd',
  'pat',
  'bearer',
  'cookie',
  'cookies',
  'session',
  'sessionid',
  'sessid',
  'credential',
  'credentials',
  'creds',
  'cred',
  'sig',
  'signature',
  'private',
  'privatekey',
  'jwt',
  'dpop',
  'otp',
  'totp',
]);

/** Words that appear only in credential names, so a run-together word containing one is secret. */
const SECRET_INFIXES = ['password', 'passwd', 'passphrase', 'apikey', 'credential', 'privatekey'];

/** Endings of run-together words (`accesstoken`, `clientsecret`, `jsessionid`). */
const SECRET_ENDINGS = ['token', 'secret', 'signature', 'sessionid', 'sessid', 'cookie'];

/** What a run-together `…key` must start with to be a credential (`accesskey`, not `monkey`). */
const KEY_COMPOUND_STARTS = ['api', 'access', 'secret', 'private', 'signing', 'auth', 'master', 'encryption'];

/** A last word that describes the secret (its kind, place, size, lifetime) instead of holding it. */
const DESCRIBING_TAILS = new Set([
  'type',
  'types',
  'kind',
  'url',
  'uri',
  'endpoint',
  'method',
  'methods',
  'scheme',
  'mode',
  'name',
  'names',
  'id',
  'ids',
  'path',
  'file',
  'dir',
  'count',
  'length',
  'size',
  'limit',
  'expires',
  'expiry',
  'expiration',
  'ttl',
  'timeout',
  'at',
  'in',
  'hint',
  'format',
  'alg',
  'algorithm',
  'provider',
  'issuer',
  'domain',
  'version',
  'label',
  'enabled',
  'required',
]);

/** Words that turn a following `key` into a database, cache or keyboard key. */
const PLAIN_KEY_QUALIFIERS = new Set([
  'sort',
  'primary',
  'foreign',
  'partition',
  'row',
  'cache',
  'idempotency',
  'dedup',
  'dedupe',
  'lookup',
  'index',
  'unique',
  'composite',
  'routing',
  'group',
  'object',
  'map',
  'hash',
  'press',
  'hot',
  'shortcut',
  'public',
]);

/**
 * Words that turn a following `token` into a place marker, not a credential: MCP's own
 * `progressToken`, pagination's `next_token` / `pageToken` / `continuationToken`, a cancellation
 * token. Shown in clear, they let a person follow a call; hidden, they only hide the protocol.
 */
const PLAIN_TOKEN_QUALIFIERS = new Set(['progress', 'page', 'next', 'continuation', 'cancellation']);

/** Shell variables whose names only look like a password abbreviation. */
const SHELL_WORKING_DIRECTORY = new Set(['PWD', 'OLDPWD']);

/** Answers so far: the same few argument keys come back on every call. */
const known = new Map<string, boolean>();
const KNOWN_MAX = 4096;

/** True when `name` (a key, parameter, header or variable name) marks its value as a credential. */
export function isSecretName(name: string): boolean {
  let secret = known.get(name);
  if (secret === undefined) {
    if (known.size >= KNOWN_MAX) known.clear();
    secret = decide(name);
    known.set(name, secret);
  }
  return secret;
}

function decide(name: string): boolean {
  if (SHELL_WORKING_DIRECTORY.has(name)) return false;
  // Two readings: `keyId` is key + id in camelCase, while `aPi_KeY` is only odd capitals of api_key.
  const fine = wordsOf(splitCamelCase(name));
  const coarse = wordsOf(name);
  // Odd capitals (`gITHub_pAt`) make odd words (`at`): only real camelCase is read for its tail.
  if (describesOnly(coarse) || (CAMEL_CASE.test(name) && describesOnly(fine))) return false;
  return hasSecretWord(fine) || hasSecretWord(coarse);
}

/** `passwordLength`, `KeyId`: words run together, each after the first starting with one capital. */
const CAMEL_CASE = /^[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+$/;

/** True when the last word says what the name is about the secret (`token_type`), not the secret. */
function describesOnly(words: readonly string[]): boolean {
  const last = words.length - 1;
  if (last < 1 || !DESCRIBING_TAILS.has(words[last]!)) return false;
  // `session_id` is the session itself.
  return !(words[last] === 'id' && (words[last - 1] === 'session' || words[last - 1] === 'sess'));
}

function hasSecretWord(words: readonly string[]): boolean {
  return words.some((word, index) => isSecretWord(word, words[index - 1]));
}

function isSecretWord(word: string, before: string | undefined): boolean {
  if (word === 'key' || word === 'keys') return before === undefined || !PLAIN_KEY_QUALIFIERS.has(before);
  if (word === 'token') return before === undefined || !PLAIN_TOKEN_QUALIFIERS.has(before);
  // Run together (`progresstoken`, as `progressToken` reads without its capitals).
  if (word.endsWith('token')) {
    const prefix = word.slice(0, -5);
    if ([...PLAIN_TOKEN_QUALIFIERS].some((qualifier) => prefix.endsWith(qualifier))) return false;
  }
  if (SECRET_WORDS.has(word)) return true;
  if (SECRET_INFIXES.some((infix) => word.includes(infix))) return true;
  if (SECRET_ENDINGS.some((ending) => word.endsWith(ending))) return true;
  const keyless = word.endsWith('keys') ? word.slice(0, -4) : word.endsWith('key') ? word.slice(0, -3) : '';
  return keyless !== '' && KEY_COMPOUND_STARTS.some((start) => keyless.endsWith(start));
}

/** `XMLHttpRequest` → `XML Http Request`, `apiKey` → `api Key`, `token2` stays one word. */
function splitCamelCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

function wordsOf(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}
