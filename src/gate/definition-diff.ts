/**
 * What changed in a tool's definition, as lines a person can scan in the approval dialog. A line
 * with `before` and `after` is a change; only `after`, an addition; only `before`, a removal.
 * All server text is passed through `revealInvisible`, so a change made of invisible characters
 * shows up as a visible difference. Values are never clipped unless a caller asks (`maxValueLength`):
 * a poisoned addition is often long, and what the person is asked to approve must be shown whole
 * (the dialog scrolls). A long line still shows only its changed words, each with a little context,
 * but every changed word in full. Output is deterministic (keys sorted).
 */

import { isJsonObject, type Tool } from '../protocol/index.js';
import { weighChange } from './definition-weight.js';
import { formatFieldPath, revealInvisible } from './poisoning.js';
import type { DefinitionChange, DefinitionDiffLine, PinnedTool } from './types.js';

/** Limits that keep a diff readable. */
export interface DiffOptions {
  /** Most lines returned; beyond it the last line says how many more changes there are. Default 40. */
  maxLines?: number;
  /** Longest `before`/`after` text before it is clipped. Default: no limit (the whole change is shown). */
  maxValueLength?: number;
}

const DEFAULT_MAX_LINES = 40;
/** Texts up to this long (one line) are shown whole; a person reads them faster than an excerpt. */
const SHORT_TEXT = 200;
/** Words (and the spaces between them) kept either side of a change inside a long line. */
const CONTEXT_TOKENS = 10;
/** Past this many comparison cells, a changed block is shown as removed-then-added. */
const MAX_DIFF_CELLS = 1_000_000;
/** Schema keywords whose string values are prose, diffed as text rather than as values. */
const PROSE_KEYWORDS = new Set(['description', 'title', '$comment']);
/** Schema keywords whose array values are sets: a change is which members came and went. */
const SET_KEYWORDS = new Set(['required', 'enum', 'type']);
/** What an absent hint means (the spec's defaults), so `absent → false` reads as the change it is. */
const HINT_DEFAULTS: Record<string, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * The readable differences between two definitions of a tool: name, title, description (changed
 * lines, or the changed words of a long line in context), annotations, then input and output
 * schemas path by path (`inputSchema.properties.path.type`, added and removed properties, members
 * added to or removed from `required`/`enum`/`type`). Annotations come before schemas so that a
 * cap never hides a changed hint behind a long schema diff.
 */
export function diffDefinitions(before: Tool, after: Tool, options: DiffOptions = {}): DefinitionDiffLine[] {
  const maxLines = Math.max(1, options.maxLines ?? DEFAULT_MAX_LINES);
  const diff = new LineCollector(options.maxValueLength ?? Number.POSITIVE_INFINITY);
  diff.value('name', before.name, after.name);
  diff.text('title', before.title, after.title);
  diff.text('description', before.description, after.description);
  diffAnnotations(diff, before.annotations, after.annotations);
  diff.json('inputSchema', [], before.inputSchema, after.inputSchema);
  diff.json('outputSchema', [], before.outputSchema, after.outputSchema);
  const lines = diff.lines;
  if (lines.length <= maxLines) return lines;
  const shown = lines.slice(0, maxLines - 1);
  shown.push({ field: `… and ${lines.length - shown.length} more changes` });
  return shown;
}

/** The change between two pins of one tool, with both hashes and its weight, for the approval dialog. */
export function describeChange(
  before: PinnedTool,
  after: PinnedTool,
  options?: DiffOptions,
): DefinitionChange {
  const changes = diffDefinitions(before.tool, after.tool, options);
  if (changes.length === 0 && before.definitionHash !== after.definitionHash) {
    changes.push({ field: 'definition', before: before.definitionHash, after: after.definitionHash });
  }
  const { weight, widening } = weighChange(before.tool, after.tool);
  return {
    previousHash: before.definitionHash,
    currentHash: after.definitionHash,
    changes,
    weight,
    ...(widening.length > 0 ? { widening } : {}),
  };
}

function diffAnnotations(diff: LineCollector, before: unknown, after: unknown): void {
  const a = isJsonObject(before) ? before : {};
  const b = isJsonObject(after) ? after : {};
  for (const key of unionKeys(a, b)) {
    const field = formatFieldPath('annotations', [key]);
    const fallback = HINT_DEFAULTS[key];
    if (key === 'title' && isTextOrAbsent(a[key]) && isTextOrAbsent(b[key])) {
      diff.text(field, a[key], b[key]);
    } else if (fallback !== undefined && (a[key] === undefined) !== (b[key] === undefined)) {
      const unset = `(not set: means ${fallback})`;
      diff.push(
        field,
        a[key] === undefined ? unset : diff.render(a[key]),
        b[key] === undefined ? unset : diff.render(b[key]),
      );
    } else {
      diff.json('annotations', [key], a[key], b[key]);
    }
  }
}

function isTextOrAbsent(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

function unionKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set<string>();
  for (const key of Object.keys(a)) if (a[key] !== undefined) keys.add(key);
  for (const key of Object.keys(b)) if (b[key] !== undefined) keys.add(key);
  return [...keys].sort();
}

/** Equality of JSON values, ignoring key order and undefined members (as canonical JSON does). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (!isJsonObject(a) || !isJsonObject(b) || Array.isArray(b)) return false;
  const keys = unionKeys(a, b);
  return keys.every((key) => jsonEqual(a[key], b[key]));
}

class LineCollector {
  readonly lines: DefinitionDiffLine[] = [];

  constructor(private readonly maxValueLength: number) {}

  push(field: string, before: string | undefined, after: string | undefined): void {
    const line: DefinitionDiffLine = { field };
    if (before !== undefined) line.before = clip(before, this.maxValueLength);
    if (after !== undefined) line.after = clip(after, this.maxValueLength);
    this.lines.push(line);
  }

  /** A JSON value as one line of text (strings quoted, so `"string"` and `string` differ visibly). */
  render(value: unknown): string {
    return revealInvisible(JSON.stringify(sortKeys(value)) ?? 'null');
  }

  value(field: string, before: unknown, after: unknown): void {
    if (jsonEqual(before, after)) return;
    this.push(
      field,
      before === undefined ? undefined : this.render(before),
      after === undefined ? undefined : this.render(after),
    );
  }

  /** Prose: whole when short, else changed lines, and within a changed long line the changed words. */
  text(field: string, before: unknown, after: unknown): void {
    if (before === after) return;
    if (typeof before !== 'string' && before !== undefined) {
      this.value(field, before, after);
      return;
    }
    if (typeof after !== 'string' && after !== undefined) {
      this.value(field, before, after);
      return;
    }
    const a = before === undefined ? undefined : revealInvisible(before);
    const b = after === undefined ? undefined : revealInvisible(after);
    if (a === undefined || b === undefined || (isShort(a) && isShort(b))) {
      this.push(field, a, b);
      return;
    }
    const linesA = a.split(/\r?\n/);
    const linesB = b.split(/\r?\n/);
    if (linesA.length === 1 && linesB.length === 1) {
      this.words(field, a, b);
      return;
    }
    let lineA = 0;
    let lineB = 0;
    for (const hunk of hunks(diffSequences(linesA, linesB), 0)) {
      lineA += hunk.skipped;
      lineB += hunk.skipped;
      const removed = hunk.ops.filter((op) => op.type === 'delete').map((op) => op.value);
      const added = hunk.ops.filter((op) => op.type === 'insert').map((op) => op.value);
      const at = added.length > 0 ? lineB + 1 : lineA + 1;
      const span = Math.max(added.length, removed.length);
      const label = `${field}, ${span > 1 ? `lines ${at}–${at + span - 1}` : `line ${at}`}`;
      if (removed.length === added.length) {
        // Line for line: each pair read best as changed words.
        removed.forEach((line, index) => {
          const pairLabel = `${field}, line ${lineB + index + 1}`;
          if (isShort(line) && isShort(added[index]!)) this.push(pairLabel, line, added[index]);
          else this.words(pairLabel, line, added[index]!);
        });
      } else {
        this.push(
          label,
          removed.length ? removed.join('\n') : undefined,
          added.length ? added.join('\n') : undefined,
        );
      }
      lineA += removed.length;
      lineB += added.length;
    }
  }

  /** One long line: each change with a few words of context either side. */
  private words(field: string, before: string, after: string): void {
    const ops = diffSequences(tokenize(before), tokenize(after));
    for (const hunk of hunks(ops, CONTEXT_TOKENS)) {
      const lead = hunk.from > 0 ? '…' : '';
      const tail = hunk.to < ops.length ? '…' : '';
      const side = (type: Op['type']) =>
        hunk.ops
          .filter((op) => op.type === 'equal' || op.type === type)
          .map((op) => op.value)
          .join('')
          .trim();
      this.push(field, `${lead}${side('delete')}${tail}`, `${lead}${side('insert')}${tail}`);
    }
  }

  /** JSON Schema (or any JSON) path by path. */
  json(root: string, path: (string | number)[], before: unknown, after: unknown): void {
    if (jsonEqual(before, after)) return;
    const field = formatFieldPath(root, path);
    const key = path.at(-1);
    if (before === undefined || after === undefined) {
      this.value(field, before, after);
      return;
    }
    if (
      typeof key === 'string' &&
      PROSE_KEYWORDS.has(key) &&
      typeof before === 'string' &&
      typeof after === 'string'
    ) {
      this.text(field, before, after);
      return;
    }
    if (isJsonObject(before) && isJsonObject(after)) {
      for (const name of unionKeys(before, after))
        this.json(root, [...path, name], before[name], after[name]);
      return;
    }
    if (Array.isArray(before) && Array.isArray(after)) {
      if (typeof key === 'string' && SET_KEYWORDS.has(key)) {
        this.members(field, before, after);
        return;
      }
      const length = Math.max(before.length, after.length);
      for (let index = 0; index < length; index++)
        this.json(root, [...path, index], before[index], after[index]);
      return;
    }
    this.value(field, before, after);
  }

  /** A set-like array (`required`, `enum`, `type`): one line per member removed or added. */
  private members(field: string, before: unknown[], after: unknown[]): void {
    const a = before.map((item) => this.render(item));
    const b = after.map((item) => this.render(item));
    const inA = new Set(a);
    const inB = new Set(b);
    for (const item of new Set(a)) if (!inB.has(item)) this.push(field, item, undefined);
    for (const item of new Set(b)) if (!inA.has(item)) this.push(field, undefined, item);
    if (a.every((item) => inB.has(item)) && b.every((item) => inA.has(item))) {
      // Same members, different order or repetition.
      this.push(field, this.render(before), this.render(after));
    }
  }
}

function isShort(text: string): boolean {
  return text.length <= SHORT_TEXT && !text.includes('\n');
}

/** Words and the whitespace between them, so joining tokens gives the text back. */
function tokenize(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isJsonObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key]);
  return sorted;
}

/** Clips long text without splitting a surrogate pair or a `⟦…⟧` marker, and says how much was cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(1, max);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  const open = text.lastIndexOf('⟦', cut - 1);
  if (open > text.lastIndexOf('⟧', cut - 1)) cut = open;
  return `${text.slice(0, cut)}… (${text.length - cut} more characters)`;
}

interface Op {
  type: 'equal' | 'delete' | 'insert';
  value: string;
}

/** A longest-common-subsequence diff; common ends are matched first, so typical edits are cheap. */
function diffSequences(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((value) => ({ type: 'equal', value }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > MAX_DIFF_CELLS) {
    for (const value of midA) ops.push({ type: 'delete', value });
    for (const value of midB) ops.push({ type: 'insert', value });
  } else {
    // common[i * (m + 1) + j]: LCS length of midA[i..] and midB[j..].
    const width = m + 1;
    const common = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        common[i * width + j] =
          midA[i] === midB[j]
            ? common[(i + 1) * width + j + 1]! + 1
            : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push({ type: 'equal', value: midA[i++]! });
        j++;
      } else if (j >= m || (i < n && common[(i + 1) * width + j]! >= common[i * width + j + 1]!)) {
        ops.push({ type: 'delete', value: midA[i++]! });
      } else {
        ops.push({ type: 'insert', value: midB[j++]! });
      }
    }
  }
  for (const value of a.slice(endA)) ops.push({ type: 'equal', value });
  return ops;
}

/**
 * Groups changes with `context` equal ops either side; changes closer than twice the context
 * share a hunk. `from`/`to` index `ops`; `skipped` counts the equal ops since the previous hunk.
 */
function hunks(ops: Op[], context: number): { from: number; to: number; skipped: number; ops: Op[] }[] {
  const groups: { from: number; to: number }[] = [];
  for (let index = 0; index < ops.length; index++) {
    if (ops[index]!.type === 'equal') continue;
    const from = Math.max(0, index - context);
    let to = index;
    while (to < ops.length && ops[to]!.type !== 'equal') to++;
    const last = groups.at(-1);
    if (last && from <= last.to) last.to = Math.min(ops.length, to + context);
    else groups.push({ from, to: Math.min(ops.length, to + context) });
    index = to - 1;
  }
  let previous = 0;
  return groups.map(({ from, to }) => {
    const hunk = { from, to, skipped: from - previous, ops: ops.slice(from, to) };
    previous = to;
    return hunk;
  });
}
