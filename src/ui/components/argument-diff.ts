/**
 * What an approver changed: the proposed arguments against the ones sent, field by field. Objects
 * are compared key by key; anything else (arrays included) is one value, so a reordered list reads
 * as one change rather than a change at every index.
 */

import { childPath } from './json-path.js';

interface ArgumentChange {
  path: string;
  /** Absent when the approver added the field. */
  before?: unknown;
  /** Absent when the approver removed the field. */
  after?: unknown;
}

/** Changes listed at most: arguments come from a caller and may be of any size. */
export const MAX_CHANGES = 100;

export function argumentChanges(before: unknown, after: unknown): ArgumentChange[] {
  const changes: ArgumentChange[] = [];
  compare(before, after, '', changes);
  return changes;
}

function compare(before: unknown, after: unknown, path: string, changes: ArgumentChange[]): void {
  if (changes.length >= MAX_CHANGES) return;
  if (isObject(before) && isObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const key of keys) {
      const next = childPath(path, key, false);
      if (!(key in after)) changes.push({ path: next, before: before[key] });
      else if (!(key in before)) changes.push({ path: next, after: after[key] });
      else compare(before[key], after[key], next, changes);
      if (changes.length >= MAX_CHANGES) return;
    }
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after))
    changes.push({ path: path || '(all)', before, after });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
