/**
 * Secrets never reach the audit log in clear: values under keys that look like credentials are
 * replaced before anything is stored. Keys match case-insensitively anywhere in the key
 * (`x-api-key`, `AUTHORIZATION`, `db_password`); the rules are configurable per log. URLs anywhere
 * in a string (a server address, an error message quoting one, an argument) lose their user info
 * and the values of secret-looking parameters (`?api_key=…` becomes `?api_key=***`), whatever the
 * key above them is called.
 */

import { redactUrlsInText } from '../protocol/url-secrets.js';

export const REDACTED = '[redacted]';

/** Default: authorization, tokens, passwords, secrets, API keys, cookies, sessions, private keys. */
export const DEFAULT_SECRET_KEYS: readonly RegExp[] = [
  /authori[sz]ation/i,
  /token/i,
  /passw(or)?d/i,
  /secret/i,
  /api[-_]?key/i,
  /cookie/i,
  /session/i,
  /private[-_]?key/i,
  /credential/i,
];

export interface Redacted<T> {
  value: T;
  /** Where values were replaced, as readable paths (`headers.Authorization`, `items[0].token`). */
  paths: string[];
}

/** A deep copy of `value` with secret-keyed values replaced by `[redacted]`. The input is not touched. */
export function redactSecrets<T>(value: T, rules: readonly RegExp[] = DEFAULT_SECRET_KEYS): Redacted<T> {
  const paths: string[] = [];
  const anyRule = combined(rules);
  const walk = (node: unknown, path: string, depth: number): unknown => {
    // Deeper than any real argument object: stop copying rather than recurse without end.
    if (depth > 64) return '[too deep to record]';
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${path}[${index}]`, depth + 1));
    if (typeof node === 'string') {
      const shown = redactUrlsInText(node);
      if (shown !== node) paths.push(path || '(root)');
      return shown;
    }
    if (typeof node !== 'object' || node === null) return node;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const childPath = path ? `${path}.${key}` : key;
      if (anyRule.test(key) && child !== undefined && child !== null) {
        copy[key] = REDACTED;
        paths.push(childPath);
      } else copy[key] = walk(child, childPath, depth + 1);
    }
    return copy;
  };
  return { value: walk(value, '', 0) as T, paths };
}

/**
 * A deep copy of `value` with secrets in URLs hidden in every string (see redactUrlsInText), keys
 * and all other values untouched: for whole audit records, where server ids, caller labels and
 * error messages may quote a server URL.
 */
export function redactUrlSecrets<T>(value: T): T {
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactUrlsInText(node);
    if (depth > 256 || typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) copy[key] = walk(child, depth + 1);
    return copy;
  };
  return walk(value, 0) as T;
}

const combinedRules = new WeakMap<readonly RegExp[], RegExp>();

/** One alternation instead of a test per rule: this runs on every key of every recorded call. */
function combined(rules: readonly RegExp[]): RegExp {
  let rule = combinedRules.get(rules);
  if (!rule) {
    rule = rules.length === 0 ? /(?!)/ : new RegExp(rules.map((r) => `(?:${r.source})`).join('|'), 'i');
    combinedRules.set(rules, rule);
  }
  return rule;
}
