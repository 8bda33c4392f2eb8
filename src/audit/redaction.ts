/**
 * Secrets never reach the audit log in clear: values under keys that look like credentials are
 * replaced before anything is stored. Keys match case-insensitively anywhere in the key
 * (`x-api-key`, `AUTHORIZATION`, `db_password`); the rules are configurable per log.
 */

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
