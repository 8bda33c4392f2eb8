/**
 * Redaction by meaning: a deep copy of a value with every credential replaced by a marker that says
 * why (`[redacted: named like a secret]`, `[redacted: bearer token]`, `***` inside URLs), and the
 * paths where that happened. This is what the audit log stores, exports and sends to a collector,
 * and what the views show; the call itself always carries the original values (redaction works on
 * copies, never on what was approved).
 *
 * Three rules, one module each:
 * - by name (secret-names.ts): a member whose key is secret-like (`auth_header`, `GITHUB_PAT`,
 *   `x-api-key`) has its strings and numbers redacted, at any depth below it, structure kept;
 *   booleans and null stay (a flag such as `private: true` holds no secret);
 * - by sibling name: in a name/value pair (`{name: "Authorization", value}`, `{key: "GITHUB_PAT",
 *   value}`, `{Key, Value}`) the value is redacted when the pair's name is secret-like, and the name
 *   member itself is never taken for a secret (`key` there is a field, not a credential);
 * - by shape (secret-text.ts): every string, whatever its key, loses bearer tokens, known token
 *   formats, URL secrets, `Authorization:` lines, `NAME=value` assignments… A string holding a JSON
 *   object or array is parsed and redacted as data (so its keys count), then written back.
 *
 * Object keys are kept as they are (they are names; a key that is itself a credential is not
 * recognized). Idempotent: redacting a redacted value changes nothing and reports no path.
 */

import { isSecretName } from './secret-names.js';
import { isRedacted, NAMED_LIKE_A_SECRET, redactionMarker, redactSecretsInText } from './secret-text.js';

export { isSecretName } from './secret-names.js';
export { isRedacted, redactionMarker, redactSecretsInText } from './secret-text.js';

/** What a value under a secret-like name is replaced with. */
export const REDACTED = redactionMarker(NAMED_LIKE_A_SECRET);

/** Deeper than any real argument object: copying stops here rather than recurse without end. */
const MAX_DEPTH = 64;
const TOO_DEEP = '[too deep to record]';

/** Members of a pair object that hold the pair's name (`{name: "Authorization", value: …}`). */
const PAIR_NAMES = new Set([
  'name',
  'key',
  'header',
  'headername',
  'field',
  'fieldname',
  'variable',
  'var',
  'param',
]);
/** Members of a pair object that hold its value. */
const PAIR_VALUES = new Set(['value', 'values', 'val', 'content', 'data', 'text']);

export interface Redacted<T> {
  value: T;
  /** Where values were replaced, as readable paths (`headers[0].value`, `env.GITHUB_PAT`). */
  paths: string[];
}

export interface RedactionOptions {
  /** More names to treat as secret, besides the built-in rule (which cannot be turned off). */
  extraSecretNames?: readonly RegExp[];
}

/** A deep copy of `value` with every credential replaced by a marker. The input is not touched. */
export function redactSecrets<T>(value: T, options: RedactionOptions = {}): Redacted<T> {
  const extra = options.extraSecretNames ?? [];
  if (extra.length === 0) return redactDeep(value, isSecretName);
  return redactDeep(value, (name) => isSecretName(name) || extra.some((rule) => matches(rule, name)));
}

function redactDeep<T>(value: T, isSecret: (name: string) => boolean): Redacted<T> {
  const paths: string[] = [];

  const walk = (node: unknown, path: string, depth: number, underSecretName: boolean): unknown => {
    if (depth > MAX_DEPTH) return TOO_DEEP;
    if (typeof node === 'string') {
      const shown = underSecretName ? (isRedacted(node) ? node : REDACTED) : redactString(node, isSecret);
      if (shown !== node) paths.push(path || '(root)');
      return shown;
    }
    if (typeof node === 'number' || typeof node === 'bigint') {
      if (!underSecretName) return node;
      paths.push(path || '(root)');
      return REDACTED;
    }
    if (Array.isArray(node))
      return node.map((item, index) => walk(item, `${path}[${index}]`, depth + 1, underSecretName));
    if (typeof node !== 'object' || node === null) return node;
    const entries = Object.entries(node);
    const pair = pairOf(entries, isSecret);
    const copy: Record<string, unknown> = {};
    for (const [key, child] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      const lower = key.toLowerCase();
      const secret =
        underSecretName ||
        (pair ? pair.secret && PAIR_VALUES.has(lower) : false) ||
        (pair?.nameKey !== key && isSecret(key));
      copy[key] = walk(child, childPath, depth + 1, secret);
    }
    return copy;
  };
  return { value: walk(value, '', 0, false) as T, paths };
}

/**
 * A deep copy of `value` with secrets hidden by their shape in every string (secret-text.ts), keys
 * and everything else untouched and no name rule: for the envelope of an audit record, whose own
 * members (`sessionId`, `toolName`) are not credentials, while its server id, labels and error
 * messages may quote one.
 */
export function redactSecretsInStrings<T>(value: T): T {
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactString(node, isSecretName);
    if (depth > MAX_DEPTH * 4 || typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) copy[key] = walk(child, depth + 1);
    return copy;
  };
  return walk(value, 0) as T;
}

/** A pair object's name member, and whether that name is secret-like. */
function pairOf(
  entries: readonly [string, unknown][],
  isSecret: (name: string) => boolean,
): { nameKey: string; secret: boolean } | undefined {
  const named = entries.find(
    ([key, child]) => typeof child === 'string' && PAIR_NAMES.has(key.toLowerCase()),
  );
  if (!named || !entries.some(([key]) => PAIR_VALUES.has(key.toLowerCase()))) return undefined;
  return { nameKey: named[0], secret: isSecret(named[1] as string) };
}

/** A string's secrets hidden: as JSON data when it holds a JSON object or array, else as text. */
function redactString(text: string, isSecret: (name: string) => boolean): string {
  const json = parsedJson(text);
  if (json !== undefined) {
    const { value, paths } = redactDeep(json.value, isSecret);
    return paths.length === 0 ? text : JSON.stringify(value, null, json.indent);
  }
  return redactSecretsInText(text);
}

/** The JSON object or array `text` holds, and the indent it was written with; else undefined. */
function parsedJson(text: string): { value: unknown; indent: number } | undefined {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']'))) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return { value, indent: /^[{[]\r?\n( +)/.exec(trimmed)?.[1]?.length ?? 0 };
  } catch {
    // Text that only looks like JSON is redacted as text.
    return undefined;
  }
}

function matches(rule: RegExp, name: string): boolean {
  rule.lastIndex = 0;
  return rule.test(name);
}
