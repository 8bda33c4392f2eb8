/**
 * Secrets by their shape inside free text, whatever key the text sits under: a curl command line,
 * an error message, a header dump, a shell snippet, a config file a tool returned.
 *
 * Found and replaced by a marker saying what was there (`[redacted: bearer token]`):
 * - PEM private key blocks;
 * - URLs: user info and values of secret-named parameters (`***`, see url-secrets.ts), also inside
 *   a percent-encoded URL that is itself a parameter value;
 * - `Bearer …` and `Basic …` credentials (also after `%20` or `+`);
 * - well-known token shapes: GitHub (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), GitLab
 *   (`glpat-`), OpenAI and Anthropic (`sk-`, `sk-ant-`), Slack (`xoxb-`…, `xapp-`), AWS access key
 *   ids (`AKIA`, `ASIA`), Google API keys (`AIza`), Stripe (`sk_live_`, `rk_live_`, `whsec_`), npm
 *   (`npm_`), Hugging Face (`hf_`), JWTs (`eyJ….eyJ….`);
 * - a value next to a secret name (secret-names.ts): `Authorization: …` and `Cookie: …` lines,
 *   `"password": "…"` and `token = '…'` in JSON, YAML or code, `GITHUB_PAT=…` assignments,
 *   `--api-key …` flags and curl's `-u user:password`.
 *
 * Not decoded: base64 blobs (an encoded secret is opaque here, only `Basic` credentials are
 * recognized by their scheme), and other encodings of text (a JSON string inside a string is parsed
 * by redaction.ts, which calls this on every string it holds).
 *
 * Idempotent: markers and `***` are never redacted again, so redacting twice gives the same text.
 */

import { isSecretName } from './secret-names.js';
import { redactUrlsInText } from './url-secrets.js';

/** What a redacted value is replaced with: says why, so a reviewer knows something was there. */
export function redactionMarker(reason: string): string {
  return `[redacted: ${reason}]`;
}

/** The reason given for a value redacted because of the name next to it. */
export const NAMED_LIKE_A_SECRET = 'named like a secret';

/** A marker (either form Toolgate ever wrote). */
const MARKER_SOURCE = String.raw`\[redacted(?::[^\]\r\n]*)?\]`;
const MARKERS = new RegExp(String.raw`${MARKER_SOURCE}|\*\*\*`, 'g');

/**
 * True when `value` holds nothing left to hide: blank, or only markers and URL masks, perhaps after
 * the scheme word they stood for (`Bearer [redacted: bearer token]`).
 */
export function isRedacted(value: string): boolean {
  const rest = value.replace(MARKERS, '');
  if (rest === value) return value.trim() === '';
  return /^\s*(?:bearer|basic|token|digest)?\s*$/i.test(rest);
}

const PRIVATE_KEY_BLOCK =
  /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g;

/** Token formats that announce themselves by a prefix, each with the name a reviewer reads. */
const TOKEN_SHAPES: readonly (readonly [RegExp, string])[] = [
  [/gh[pousr]_[A-Za-z0-9]{20,}/, 'github token'],
  [/github_pat_[A-Za-z0-9_]{20,}/, 'github token'],
  [/glpat-[A-Za-z0-9_-]{20,}/, 'gitlab token'],
  [/sk-ant-[A-Za-z0-9_-]{16,}/, 'anthropic key'],
  [/sk-[A-Za-z0-9_-]{16,}/, 'api key (sk-)'],
  [/(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/, 'slack token'],
  [/A(?:KIA|SIA)[0-9A-Z]{16}(?![0-9A-Za-z])/, 'aws access key id'],
  [/AIza[0-9A-Za-z_-]{35}/, 'google api key'],
  [/(?:[sr]k_(?:live|test)|whsec)_[0-9A-Za-z]{10,}/, 'stripe key'],
  [/npm_[A-Za-z0-9]{36}/, 'npm token'],
  [/hf_[A-Za-z0-9]{30,}/, 'hugging face token'],
  [/eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/, 'jwt'],
];

/** All token shapes in one pass (one scan of the text instead of one per shape). */
const ANY_TOKEN = new RegExp(TOKEN_SHAPES.map(([shape]) => `(${shape.source})`).join('|'), 'g');

/**
 * A token starts a word, or follows a percent escape (`Bearer%20sk-…`): `task-0123…` is not `sk-…`.
 * Checked on the match rather than by a lookbehind, which would be tried at every position.
 */
function startsAWord(text: string, offset: number): boolean {
  const before = text[offset - 1];
  if (before === undefined || !/[A-Za-z0-9_]/.test(before)) return true;
  return offset >= 3 && /%[0-9A-Fa-f]{2}$/.test(text.slice(offset - 3, offset));
}

/** `Bearer <token68>` / `Basic <base64>`, the scheme kept so the reader sees which it was. */
const AUTH_SCHEME = /\b(bearer|basic)((?:[ \t]|%20|\+)+)([A-Za-z0-9._~+/=-]+)/gi;

/** `Authorization: …` up to the end of the line or the quote around it (a curl `-H '…'`). */
const HEADER_LINE = /(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_-]*)([ \t]*:[ \t]*)([^\r\n'"\\]+)/g;

/** `"password": "…"`, `token = '…'`, `\"secret\":\"…\"` (JSON inside a JSON string). */
const QUOTED_PAIR =
  /(\\*["']|)(?<![A-Za-z0-9_$-])([A-Za-z_$][\w$.-]*)\1([ \t]*[:=][ \t]*)(\\*["'])((?:(?!\4)[^\r\n])*)\4/g;

/** `GITHUB_PAT=ghp_…`, `password=hunter2&…` (an unquoted value ends at a space or separator). */
const ASSIGNMENT = new RegExp(
  String.raw`(?<![\w.$-])([A-Za-z_][\w.-]*)=(${MARKER_SOURCE}|[^\s&;'",)\]}]+)`,
  'g',
);

/** `--api-key abc`, `--token=abc`, `--password "a b"`. */
const FLAG = new RegExp(
  String.raw`(?<![\w-])--([A-Za-z][\w-]*)(=|[ \t]+)(${MARKER_SOURCE}|"(?:[^"\\]|\\.)*"|'[^']*'|[^\s'"-][^\s'"]*)`,
  'g',
);

/** curl's `-u user:password` / `--user=user:password`. */
const CURL_USER = new RegExp(
  String.raw`(?<![\w-])(-u|--user)([ \t]*=?[ \t]*)(['"]?)([^\s:'"]+):(${MARKER_SOURCE}|[^\s'"]+)\3`,
  'g',
);

/** Header names whose value is always a credential, whatever words they are made of. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * Single words strong enough to mark `word: value` in prose as a credential. Others (`session: 3 of
 * 5`, `key: press Enter`) are too often plain English; compound names (`x-api-key`, `auth_header`)
 * are not.
 */
const STRONG_WORDS = new Set(['password', 'passwd', 'passphrase', 'token', 'secret', 'apikey', 'bearer']);

function isHeaderLikeSecret(name: string): boolean {
  const lower = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(lower) || STRONG_WORDS.has(lower)) return true;
  return /[-_]/.test(name) && isSecretName(name);
}

/** True for a token-like credential, false for an English word (`Bearer of`, `Basic Authentication`). */
function looksLikeCredential(value: string): boolean {
  if (value.length < 8) return false;
  if (/[0-9._~+/=-]/.test(value) || value.length >= 24) return true;
  return /[A-Z]/.test(value.slice(1)) && /[a-z]/.test(value);
}

/** Every rule needs one of these: a separator, a scheme word or the start of a token shape. */
const MIGHT_HOLD_A_SECRET =
  /[:=]|--|bearer|basic|gh[pousr]_|github_pat_|glpat-|sk-|[sr]k_|whsec_|xox|xapp-|A[KS]IA|AIza|npm_|hf_|eyJ/i;

/** `text` with every secret this module recognizes replaced by a marker. Never throws. */
export function redactSecretsInText(text: string): string {
  // Most strings are short words or sentences: a cheap look for what every rule needs comes first.
  if (!MIGHT_HOLD_A_SECRET.test(text)) return text;
  let result = text;
  if (result.includes('PRIVATE KEY'))
    result = result.replace(
      PRIVATE_KEY_BLOCK,
      (_block, kind: string) =>
        `-----BEGIN ${kind}-----${redactionMarker('private key')}-----END ${kind}-----`,
    );
  result = redactUrlsInText(result);
  result = result.replace(AUTH_SCHEME, (match, scheme: string, gap: string, credential: string) =>
    looksLikeCredential(credential)
      ? `${scheme}${gap}${redactionMarker(`${scheme.toLowerCase()} ${scheme.toLowerCase() === 'basic' ? 'credentials' : 'token'}`)}`
      : match,
  );
  result = result.replace(ANY_TOKEN, (match: string, ...groups: unknown[]) => {
    const offset = groups[TOKEN_SHAPES.length] as number;
    if (!startsAWord(result, offset)) return match;
    const shape = groups.findIndex((group, index) => index < TOKEN_SHAPES.length && group !== undefined);
    return redactionMarker(TOKEN_SHAPES[shape]![1]);
  });
  const colon = result.includes(':');
  const equals = result.includes('=');
  if (colon)
    result = result.replace(HEADER_LINE, (match, name: string, gap: string, value: string) => {
      if (!isHeaderLikeSecret(name) || isRedacted(value)) return match;
      const trailing = /\s*$/.exec(value)?.[0] ?? '';
      return `${name}${gap}${redactionMarker(NAMED_LIKE_A_SECRET)}${trailing}`;
    });
  if ((colon || equals) && /["']/.test(result))
    result = result.replace(
      QUOTED_PAIR,
      (match, keyQuote: string, name: string, gap: string, valueQuote: string, value: string) =>
        value === '' || isRedacted(value) || !isSecretName(name)
          ? match
          : `${keyQuote}${name}${keyQuote}${gap}${valueQuote}${redactionMarker(NAMED_LIKE_A_SECRET)}${valueQuote}`,
    );
  if (equals)
    result = result.replace(ASSIGNMENT, (match, name: string, value: string) =>
      isRedacted(value) || !isSecretName(name) ? match : `${name}=${redactionMarker(NAMED_LIKE_A_SECRET)}`,
    );
  if (result.includes('--'))
    result = result.replace(FLAG, (match, name: string, gap: string, value: string) =>
      isRedacted(value) || !isSecretName(name)
        ? match
        : `--${name}${gap}${redactionMarker(NAMED_LIKE_A_SECRET)}`,
    );
  if (result.includes('-u'))
    result = result.replace(
      CURL_USER,
      (match, flag: string, gap: string, quote: string, user: string, password: string) =>
        isRedacted(password) ? match : `${flag}${gap}${quote}${user}:${redactionMarker('password')}${quote}`,
    );
  return result;
}
