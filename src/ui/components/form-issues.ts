/**
 * Where the validator's issues land in the schema form. A field's path is written the way the
 * validator writes issue paths (schema/issues.ts, renderPath): `a.b[2]["odd key"]`, the root ''.
 * A field shows the issues at its own path once the person edited it, or all of them once they
 * pressed Call; a field that holds its whole value as one control (a JSON field) also shows the
 * issues inside that value, each with the rest of its path.
 */

import type { SchemaIssue } from '../../schema/index.js';

/** The validator's rule for a key written bare (`a.b`) rather than quoted (`a["b c"]`). */
const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** The path of `key` inside the object at `parent`. */
export const keyPath = (parent: string, key: string): string =>
  IDENTIFIER.test(key) ? (parent === '' ? key : `${parent}.${key}`) : `${parent}[${JSON.stringify(key)}]`;

/** The path of item `index` of the array at `parent`. */
export const itemPath = (parent: string, index: number): string => `${parent}[${index}]`;

/** The issues of the whole form, and which fields show theirs. */
export interface FormIssues {
  byPath: ReadonlyMap<string, readonly string[]>;
  /** Every field shows its issues (the person pressed Call), not only those they edited. */
  all: boolean;
  /** Paths of the fields the person edited. */
  touched: Set<string>;
}

/** The validator's issues by field path (its '(root)' is the form's own path, ''). */
export function groupIssues(issues: readonly SchemaIssue[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const issue of issues) {
    const at = issue.path === '(root)' ? '' : issue.path;
    byPath.set(at, [...(byPath.get(at) ?? []), issue.message]);
  }
  return byPath;
}

/** The messages one field shows: its own, and (a leaf, e.g. a JSON field) those of what it holds. */
export function messagesAt(issues: FormIssues, path: string, leaf: boolean): string[] {
  if (!issues.all && !issues.touched.has(path)) return [];
  const out: string[] = [];
  for (const [at, messages] of issues.byPath) {
    if (at === path) out.push(...messages);
    else if (leaf && (path === '' || at.startsWith(`${path}.`) || at.startsWith(`${path}[`)))
      out.push(...messages.map((message) => `${at.slice(path.length).replace(/^\./, '')} ${message}`));
  }
  return out;
}
