/**
 * How much a change to a tool's definition weighs. Three classes, heaviest wins:
 *
 *   widening  it accepts or does more: the input schema loosened (a required argument dropped, an
 *             enum or type member added, a new argument, a bound relaxed or removed, a constraint
 *             removed), or a hint turned towards risk (destructive or open-world on, read-only off).
 *             Re-asked and flagged.
 *   wording   what it says changed (title, description, an annotation's title, the output schema,
 *             any other annotation): shown as a diff and re-asked.
 *   narrowing it only accepts or does less, or the same in another order (a required argument
 *             added, an enum member removed, a bound tightened, read-only turned on...): shown,
 *             and a remembered approval still holds.
 *
 * A schema change this file does not understand counts as widening: the unknown is never cheap.
 */

import { isJsonObject, type Tool } from '../protocol/index.js';
import { formatFieldPath } from './poisoning.js';

type ChangeWeight = 'narrowing' | 'wording' | 'widening';

interface ChangeWeighing {
  weight: ChangeWeight;
  /** Each widening change, in words ("inputSchema.required: no longer requires \"to\""). */
  widening: string[];
}

const ORDER: Record<ChangeWeight, number> = { narrowing: 0, wording: 1, widening: 2 };

/** Keywords whose values are words for people, not constraints. */
const PROSE = new Set(['description', 'title', '$comment', 'examples', 'default', 'deprecated']);
/** Lower bounds: a higher value narrows. */
const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
/** Upper bounds: a lower value narrows. */
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
/** Constraints whose presence narrows and whose removal or change widens. */
const CONSTRAINTS = new Set(['pattern', 'format', 'const', 'multipleOf']);
/** Hints by the direction that means more risk, and what an absent hint means (the spec's defaults). */
const RISKY_WHEN: Record<string, { risky: boolean; absent: boolean; words: string }> = {
  destructiveHint: { risky: true, absent: true, words: 'now says it may destroy things' },
  openWorldHint: { risky: true, absent: true, words: 'now says it reaches the outside world' },
  readOnlyHint: { risky: false, absent: false, words: 'no longer says it only reads' },
};

/** Weighs the change from `before` to `after` (two definitions of one tool). */
export function weighChange(before: Tool, after: Tool): ChangeWeighing {
  const scale = new Scale();
  if (before.title !== after.title || before.description !== after.description) scale.wording();
  weighAnnotations(scale, before.annotations, after.annotations);
  weighSchema(scale, ['inputSchema'], before.inputSchema, after.inputSchema);
  if (!sameJson(before.outputSchema, after.outputSchema)) scale.wording();
  return { weight: scale.weight, widening: scale.reasons };
}

class Scale {
  weight: ChangeWeight = 'narrowing';
  readonly reasons: string[] = [];

  wording(): void {
    this.raise('wording');
  }

  widening(reason: string): void {
    this.raise('widening');
    this.reasons.push(reason);
  }

  private raise(weight: ChangeWeight): void {
    if (ORDER[weight] > ORDER[this.weight]) this.weight = weight;
  }
}

function weighAnnotations(scale: Scale, before: unknown, after: unknown): void {
  const a = isJsonObject(before) ? before : {};
  const b = isJsonObject(after) ? after : {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (sameJson(a[key], b[key])) continue;
    const hint = RISKY_WHEN[key];
    if (!hint) {
      scale.wording();
      continue;
    }
    const was = typeof a[key] === 'boolean' ? a[key] : hint.absent;
    const is = typeof b[key] === 'boolean' ? b[key] : hint.absent;
    if (was === is) continue; // Written out or left to the default: the same claim.
    if (is === hint.risky) scale.widening(`annotations.${key}: ${hint.words}`);
  }
}

type Path = (string | number)[];

/** One schema against its earlier self, keyword by keyword. */
function weighSchema(scale: Scale, path: Path, before: unknown, after: unknown): void {
  if (sameJson(before, after)) return;
  const at = (keyword: string) => formatFieldPath(String(path[0]), [...path.slice(1), keyword]);
  if (!isJsonObject(before) || !isJsonObject(after)) {
    // `true`/`{}` accept anything; a schema replaced by something else is read as widening.
    scale.widening(`${formatFieldPath(String(path[0]), path.slice(1))}: replaced`);
    return;
  }
  for (const keyword of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[keyword];
    const b = after[keyword];
    if (sameJson(a, b)) continue;
    if (PROSE.has(keyword)) scale.wording();
    else if (keyword === 'required' || keyword === 'enum')
      weighMembers(scale, at(keyword), a, b, keyword === 'required' ? 'no longer requires' : 'now allows');
    else if (keyword === 'type') weighMembers(scale, at(keyword), asList(a), asList(b), 'now allows type');
    else if (keyword === 'properties') weighProperties(scale, path, before, after);
    else if (keyword === 'additionalProperties' || keyword === 'items')
      weighSubschema(scale, [...path, keyword], a, b);
    else if (LOWER_BOUNDS.has(keyword)) weighBound(scale, at(keyword), a, b, (x, y) => y >= x);
    else if (UPPER_BOUNDS.has(keyword)) weighBound(scale, at(keyword), a, b, (x, y) => y <= x);
    else if (CONSTRAINTS.has(keyword)) {
      if (a !== undefined) scale.widening(`${at(keyword)}: ${b === undefined ? 'removed' : 'changed'}`);
    } else scale.widening(`${at(keyword)}: changed`);
  }
}

/**
 * A keyword holding a schema where absent or `true` accepts anything and `false` nothing
 * (`additionalProperties`, `items`): towards `false` narrows, towards anything-goes widens.
 */
function weighSubschema(scale: Scale, path: Path, before: unknown, after: unknown): void {
  const open = (value: unknown) => value === undefined || value === true;
  if (after === false || open(before)) return;
  if (before === false || open(after))
    scale.widening(`${formatFieldPath(String(path[0]), path.slice(1))}: now allows more`);
  else weighSchema(scale, path, before, after);
}

/** Set-like arrays: members added widen (for `required`: members removed), order alone does not. */
function weighMembers(scale: Scale, field: string, before: unknown, after: unknown, words: string): void {
  const a = Array.isArray(before) ? before.map((v) => JSON.stringify(v)) : undefined;
  const b = Array.isArray(after) ? after.map((v) => JSON.stringify(v)) : undefined;
  const isRequired = words === 'no longer requires';
  // An absent enum or type allows everything; an absent `required` requires nothing.
  if (!isRequired && b === undefined) {
    scale.widening(`${field}: removed`);
    return;
  }
  if (!isRequired && a === undefined) return;
  const fewer = isRequired ? (b ?? []) : (a ?? []);
  const more = isRequired ? (a ?? []) : (b ?? []);
  const kept = new Set(fewer);
  for (const member of new Set(more)) if (!kept.has(member)) scale.widening(`${field}: ${words} ${member}`);
}

function weighProperties(scale: Scale, path: Path, before: JsonRecord, after: JsonRecord): void {
  const a = isJsonObject(before.properties) ? before.properties : {};
  const b = isJsonObject(after.properties) ? after.properties : {};
  const closed = after.additionalProperties === false;
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const field = formatFieldPath(String(path[0]), [...path.slice(1), 'properties', name]);
    if (a[name] === undefined) scale.widening(`${field}: a new argument`);
    else if (b[name] === undefined) {
      // Dropped: narrower only when undeclared arguments are refused; otherwise it is unchecked now.
      if (!closed) scale.widening(`${field}: no longer checked`);
    } else weighSchema(scale, [...path, 'properties', name], a[name], b[name]);
  }
}

function weighBound(
  scale: Scale,
  field: string,
  before: unknown,
  after: unknown,
  narrows: (before: number, after: number) => boolean,
): void {
  if (after === undefined) scale.widening(`${field}: removed`);
  else if (before === undefined)
    return; // A new bound narrows.
  else if (typeof before !== 'number' || typeof after !== 'number' || !narrows(before, after))
    scale.widening(`${field}: relaxed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);
}

type JsonRecord = Record<string, unknown>;

function asList(value: unknown): unknown {
  return typeof value === 'string' ? [value] : value;
}

/** JSON equality ignoring key order (canonical JSON's view). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]))
    );
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (!sameJson(a[key], b[key])) return false;
  return true;
}
