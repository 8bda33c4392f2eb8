/**
 * Schema-bomb and value-size guards, run before any engine sees a schema or a value. Both walks are
 * iterative (a deep document cannot overflow the stack here) and stop at the first limit crossed,
 * returning a sentence that names it.
 */

import type { SchemaLimits } from './limits.js';
import { catastrophicShape } from './regex-risk.js';

/** What a schema that passed the guards needs remembered for validating values. */
export interface SchemaFacts {
  /** Some subschema has `uniqueItems: true` (a quadratic check: long arrays are refused). */
  uniqueItems: boolean;
}

type SchemaInspection = { ok: true; facts: SchemaFacts } | { ok: false; reason: string };

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = new Set([
  'not',
  'if',
  'then',
  'else',
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'contentSchema',
]);
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;

/** Base for relative `$id`s and `$ref`s in documents that declare none (never fetched). */
const DEFAULT_BASE = 'https://toolgate.invalid/schema.json';

type Role = 'schema' | 'data';

interface Frame {
  node: unknown;
  depth: number;
  role: Role;
  base: string;
  /** Human-readable location for messages, built only for schema nodes. */
  at: string;
}

interface RefSite {
  owner: object;
  ref: string;
  base: string;
  at: string;
}

/** Checks a schema document against the limits: size, depth, enums, patterns, references. */
export function inspectSchema(schema: unknown, limits: SchemaLimits): SchemaInspection {
  const facts: SchemaFacts = { uniqueItems: false };
  const refs: RefSite[] = [];
  const resources = new Map<string, object>();
  const anchors = new Map<string, object>();
  const stack: Frame[] = [{ node: schema, depth: 1, role: 'schema', base: DEFAULT_BASE, at: '(root)' }];
  let nodes = 0;
  let refCount = 0;
  const fail = (reason: string): SchemaInspection => ({ ok: false, reason });

  while (stack.length > 0) {
    const { node, depth, role, base: inherited, at } = stack.pop() as Frame;
    if (++nodes > limits.maxSchemaNodes)
      return fail(`the schema has more than ${limits.maxSchemaNodes} values`);
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limits.maxSchemaDepth)
      return fail(`the schema is nested deeper than ${limits.maxSchemaDepth} levels (at ${at})`);
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth: depth + 1, role, base: inherited, at });
      continue;
    }
    const record = node as Record<string, unknown>;
    if (role === 'data') {
      for (const key in record)
        stack.push({ node: record[key], depth: depth + 1, role, base: inherited, at });
      continue;
    }

    let base = inherited;
    const id = record.$id;
    if (typeof id === 'string') {
      const resolved = resolveUri(id, inherited);
      if (resolved !== undefined) {
        const [resource, fragment] = splitFragment(resolved);
        if (fragment) anchors.set(`${resource}#${safeDecode(fragment)}`, record);
        else {
          base = resource;
          resources.set(resource, record);
        }
      }
    }
    for (const anchorKey of ['$anchor', '$dynamicAnchor'] as const) {
      const anchor = record[anchorKey];
      if (typeof anchor === 'string') anchors.set(`${base}#${anchor}`, record);
    }
    for (const refKey of REF_KEYWORDS) {
      const ref = record[refKey];
      if (typeof ref !== 'string') continue;
      if (++refCount > limits.maxRefs) return fail(`the schema has more than ${limits.maxRefs} references`);
      if (refKey === '$ref') refs.push({ owner: record, ref, base, at });
    }
    if (Array.isArray(record.enum) && record.enum.length > limits.maxEnumValues)
      return fail(
        `an enum at ${at} lists ${record.enum.length} values (the limit is ${limits.maxEnumValues})`,
      );
    if (record.uniqueItems === true) facts.uniqueItems = true;
    if (typeof record.pattern === 'string') {
      const problem = patternProblem(record.pattern, limits);
      if (problem) return fail(`the pattern at ${at} ${problem}`);
    }

    for (const key in record) {
      const value = record[key];
      const childAt = at === '(root)' ? key : `${at}.${key}`;
      if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainRecord(value)) {
        if (++nodes > limits.maxSchemaNodes)
          return fail(`the schema has more than ${limits.maxSchemaNodes} values`);
        if (depth + 1 > limits.maxSchemaDepth)
          return fail(`the schema is nested deeper than ${limits.maxSchemaDepth} levels (at ${childAt})`);
        for (const name in value) {
          if (key === 'patternProperties') {
            const problem = patternProblem(name, limits);
            if (problem) return fail(`the patternProperties key at ${at} ${problem}`);
          }
          const member = value[name];
          const memberRole: Role = key === 'dependencies' && Array.isArray(member) ? 'data' : 'schema';
          stack.push({ node: member, depth: depth + 2, role: memberRole, base, at: `${childAt}.${name}` });
        }
      } else if (SCHEMA_KEYWORDS.has(key) || SCHEMA_ARRAY_KEYWORDS.has(key)) {
        stack.push({ node: value, depth: depth + 1, role: 'schema', base, at: childAt });
      } else {
        stack.push({ node: value, depth: depth + 1, role: 'data', base, at: childAt });
      }
    }
  }

  if (refs.length > 0) {
    const problem = inspectReferences(schema, refs, resources, anchors, limits);
    if (problem) return fail(problem);
  }
  return { ok: true, facts };
}

/** Why a regex from a schema is refused (too long, invalid under the `u` flag both engines use, risky). */
function patternProblem(source: string, limits: SchemaLimits): string | undefined {
  const shown = JSON.stringify(source.length > 60 ? `${source.slice(0, 57)}...` : source);
  if (source.length > limits.maxPatternLength)
    return `${shown} is longer than ${limits.maxPatternLength} characters`;
  try {
    new RegExp(source, 'u');
  } catch (error) {
    return `${shown} is not a valid regular expression (${(error as Error).message})`;
  }
  const risk = catastrophicShape(source);
  return risk ? `${shown} ${risk}` : undefined;
}

/**
 * Remote references are refused (never fetched); local ones are followed to bound how many
 * subschemas one validation pass can visit (fan-out like `a1: allOf [a0, a0]`, `a2: allOf [a1, a1]`,
 * ...) and how deep references nest. Recursion (a reference back to an ancestor) consumes the value
 * and counts once.
 */
function inspectReferences(
  root: unknown,
  refs: RefSite[],
  resources: Map<string, object>,
  anchors: Map<string, object>,
  limits: SchemaLimits,
): string | undefined {
  if (typeof root === 'object' && root !== null) resources.set(DEFAULT_BASE, root);
  const targets = new Map<object, unknown>();
  for (const site of refs) {
    const resolved = resolveUri(site.ref, site.base);
    const target = resolved === undefined ? undefined : locate(resolved, resources, anchors);
    if (target === undefined) {
      const local = site.ref.startsWith('#');
      return local
        ? `the reference ${JSON.stringify(site.ref)} at ${site.at} points nowhere in the schema`
        : `the reference ${JSON.stringify(site.ref)} at ${site.at} points outside the schema; Toolgate never fetches remote schemas`;
    }
    targets.set(site.owner, target);
  }

  const cost = new Map<object, number>();
  const active = new Set<object>();
  let problem: string | undefined;

  const visit = (node: unknown, refDepth: number): number => {
    if (problem || typeof node !== 'object' || node === null) return 1;
    const known = cost.get(node);
    if (known !== undefined) return known;
    if (active.has(node)) return 1;
    active.add(node);
    const record = node as Record<string, unknown>;
    let own = 1;
    if (targets.has(record)) {
      if (refDepth + 1 > limits.maxRefDepth) {
        problem = `references nest more than ${limits.maxRefDepth} deep (a $ref chain)`;
        return 1;
      }
      own += visit(targets.get(record), refDepth + 1);
    }
    for (const child of subschemas(record)) {
      own += visit(child, refDepth);
      if (own > limits.maxRefExpansion) break;
    }
    active.delete(node);
    if (own > limits.maxRefExpansion && !problem)
      problem = `references expand to more than ${limits.maxRefExpansion} subschemas per validation`;
    cost.set(node, own);
    return own;
  };
  visit(root, 0);
  return problem;
}

function* subschemas(record: Record<string, unknown>): Iterable<unknown> {
  for (const key in record) {
    const value = record[key];
    if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainRecord(value)) {
      for (const name in value) if (!Array.isArray(value[name])) yield value[name];
    } else if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) {
      yield* value;
    } else if (SCHEMA_KEYWORDS.has(key)) {
      yield value;
    }
  }
}

function locate(uri: string, resources: Map<string, object>, anchors: Map<string, object>): unknown {
  const [resource, fragment] = splitFragment(uri);
  const document = resources.get(resource);
  if (document === undefined) return undefined;
  if (fragment === '') return document;
  if (!fragment.startsWith('/')) return anchors.get(`${resource}#${safeDecode(fragment)}`);
  let node: unknown = document;
  for (const raw of fragment.slice(1).split('/')) {
    const segment = safeDecode(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    // An unparseable $id or $ref resolves to nothing; the caller reports it as unresolved.
    return undefined;
  }
}

function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf('#');
  return hash < 0 ? [uri, ''] : [uri.slice(0, hash), uri.slice(hash + 1)];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A malformed percent-escape is compared as written.
    return text;
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a value walk found: a limit crossed, or values JSON would drop or change. */
type ValueInspection =
  | { ok: true; chars: number; longestArray: number; needsJsonRoundTrip: boolean }
  | { ok: false; reason: string };

/**
 * Bounds a value before validation: approximate JSON size, depth, longest array. Also notices values
 * that are not plain JSON (undefined members, functions, Dates, NaN): the caller validates what
 * JSON.stringify would send instead. Recursive, which is safe: depth is bounded first.
 */
export function inspectValue(value: unknown, limits: SchemaLimits): ValueInspection {
  longestArray = 0;
  needsJsonRoundTrip = false;
  maxDepth = limits.maxValueDepth;
  const left = remaining(value, 1, limits.maxValueChars);
  if (left === TOO_DEEP)
    return { ok: false, reason: `the value is nested deeper than ${limits.maxValueDepth} levels` };
  if (left < 0)
    return { ok: false, reason: `the value is larger than ${formatChars(limits.maxValueChars)} of JSON` };
  return { ok: true, chars: limits.maxValueChars - left, longestArray, needsJsonRoundTrip };
}

// The walk's findings besides the budget: module state, reset by each (synchronous) inspectValue.
let longestArray = 0;
let needsJsonRoundTrip = false;
let maxDepth = 0;
const TOO_DEEP = Number.NEGATIVE_INFINITY;

/** What is left of `budget` (JSON characters) after `value`; negative once over, TOO_DEEP past maxDepth. */
function remaining(value: unknown, depth: number, budget: number): number {
  if (typeof value === 'string') return budget - value.length - 2;
  if (typeof value === 'number') {
    if (value - value !== 0) needsJsonRoundTrip = true; // NaN, Infinity
    return budget - 8;
  }
  if (typeof value === 'boolean') return budget - 5;
  if (value === null) return budget - 4;
  if (typeof value !== 'object') {
    needsJsonRoundTrip = true; // undefined, function, symbol, bigint
    return budget;
  }
  if (depth > maxDepth) return TOO_DEEP;
  let left = budget - 2;
  if (Array.isArray(value)) {
    const length = value.length;
    if (length > longestArray) longestArray = length;
    for (let i = 0; i < length && left >= 0; i++) left = remaining(value[i], depth + 1, left);
    return left;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) needsJsonRoundTrip = true;
  for (const key in value) {
    left = remaining((value as Record<string, unknown>)[key], depth + 1, left - key.length - 4);
    if (left < 0) return left;
  }
  return left;
}

function formatChars(chars: number): string {
  if (chars >= 1024 * 1024 && chars % (1024 * 1024) === 0) return `${chars / (1024 * 1024)} MB`;
  if (chars >= 1024 && chars % 1024 === 0) return `${chars / 1024} KB`;
  return `${chars} characters`;
}
