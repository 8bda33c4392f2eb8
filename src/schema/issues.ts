/**
 * One vocabulary of issues for both engines: Ajv's errors and @cfworker/json-schema's output units
 * become `{ path, message }` with paths a person reads (`items[2].name`, `(root)`) and messages in
 * the same words ("must be a number", "is required" with the missing property in the path).
 * Wrapper errors ("a subschema had errors") are dropped; duplicates merge; the list is capped.
 */

import type { SchemaIssue } from './report.js';

/** An engine-neutral issue before its path is rendered. */
interface RawIssue {
  /** Instance location as JSON Pointer segments (unescaped). */
  segments: string[];
  /** The keyword that failed, for merging (e.g. `type`, `anyOf`). */
  keyword: string;
  message: string;
  /** For `type`: the expected types, so alternatives can merge into "a string or null". */
  types?: string[];
}

/** The parts of an Ajv ErrorObject read here (Ajv's own type stays in its lazily loaded chunk). */
export interface AjvErrorLike {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  propertyName?: string;
}

/** The parts of a cfworker OutputUnit read here. */
export interface CfworkerUnitLike {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

// ---------------------------------------------------------------------------------------------
// Shared wording

const ARTICLES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function typeMessage(types: string[]): string {
  const words = [...new Set(types)].map((type) => ARTICLES[type] ?? type);
  if (words.length <= 1) return `must be ${words[0] ?? 'of another type'}`;
  return `must be ${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

function shown(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // A value JSON cannot show (a cycle, a BigInt) is shown as text instead.
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function listMessage(values: unknown[]): string {
  const head = values.slice(0, 10).map(shown).join(', ');
  return `must be one of ${head}${values.length > 10 ? `, ... (${values.length} allowed values)` : ''}`;
}

const PLURALS: Record<string, string> = { property: 'properties' };

function plural(count: number, word: string): string {
  return `${count} ${count === 1 ? word : (PLURALS[word] ?? `${word}s`)}`;
}

const COMPARISONS: Record<string, string> = {
  minimum: '>=',
  maximum: '<=',
  exclusiveMinimum: '>',
  exclusiveMaximum: '<',
};

const NOT_ALLOWED = 'is not allowed';
const NONE_MATCHED = 'must match one of the allowed alternatives';
const SEVERAL_MATCHED = 'must match exactly one of the alternatives, but matches several';

// ---------------------------------------------------------------------------------------------
// Ajv

/** Ajv's errors (allErrors) → raw issues. */
export function fromAjv(errors: readonly AjvErrorLike[]): RawIssue[] {
  const issues: RawIssue[] = [];
  for (const error of errors) {
    const issue = fromAjvError(error);
    if (issue) issues.push(issue);
  }
  return issues;
}

function fromAjvError(error: AjvErrorLike): RawIssue | undefined {
  // Errors inside propertyNames are about a key, not a value: the propertyNames error says it.
  if (error.propertyName !== undefined) return undefined;
  if (
    error.schemaPath.startsWith('#/') &&
    insideKeyKeyword(pointerSegments(error.schemaPath.slice(1), false))
  )
    return undefined;
  const segments = pointerSegments(error.instancePath, false);
  const params = error.params;
  const issue = (message: string, extra?: Partial<RawIssue>): RawIssue => ({
    segments,
    keyword: error.keyword,
    message,
    ...extra,
  });
  switch (error.keyword) {
    case 'required':
      return {
        segments: [...segments, String(params.missingProperty)],
        keyword: 'required',
        message: 'is required',
      };
    case 'dependentRequired':
    case 'dependencies':
      return {
        segments: [...segments, String(params.missingProperty)],
        keyword: 'required',
        message: `is required when ${shown(params.property)} is present`,
      };
    case 'additionalProperties':
      return {
        segments: [...segments, String(params.additionalProperty)],
        keyword: 'false',
        message: NOT_ALLOWED,
      };
    case 'unevaluatedProperties':
      return {
        segments: [...segments, String(params.unevaluatedProperty)],
        keyword: 'false',
        message: NOT_ALLOWED,
      };
    case 'false schema':
      return issue(NOT_ALLOWED, { keyword: 'false' });
    case 'type': {
      const types = String(params.type).split(',');
      return issue(typeMessage(types), { types });
    }
    case 'enum':
      return issue(listMessage(Array.isArray(params.allowedValues) ? params.allowedValues : []));
    case 'const':
      return issue(`must be ${shown(params.allowedValue)}`);
    case 'format':
      return issue(`must be a valid ${String(params.format)}`);
    case 'pattern':
      return issue(`must match the pattern ${String(params.pattern)}`);
    case 'minLength':
      return issue(`must have at least ${plural(Number(params.limit), 'character')}`);
    case 'maxLength':
      return issue(`must have at most ${plural(Number(params.limit), 'character')}`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return issue(`must be ${COMPARISONS[error.keyword]} ${String(params.limit)}`);
    case 'multipleOf':
      return issue(`must be a multiple of ${String(params.multipleOf)}`);
    case 'minItems':
      return issue(`must have at least ${plural(Number(params.limit), 'item')}`);
    case 'maxItems':
    case 'items':
    case 'additionalItems':
    case 'unevaluatedItems':
      return issue(`must have at most ${plural(Number(params.limit), 'item')}`);
    case 'minProperties':
      return issue(`must have at least ${plural(Number(params.limit), 'property')}`);
    case 'maxProperties':
      return issue(`must have at most ${plural(Number(params.limit), 'property')}`);
    case 'uniqueItems':
      return issue(duplicatesMessage(Number(params.i), Number(params.j)));
    case 'contains':
      return issue(containsMessage(params.minContains ?? params.min, params.maxContains ?? params.max));
    case 'anyOf':
      return issue(NONE_MATCHED);
    case 'oneOf':
      return issue(Array.isArray(params.passingSchemas) ? SEVERAL_MATCHED : NONE_MATCHED, {
        keyword: Array.isArray(params.passingSchemas) ? 'oneOf+' : 'oneOf',
      });
    case 'not':
      return issue('must not match the excluded schema');
    case 'propertyNames':
      return issue(`has a property name that is not allowed: ${shown(params.propertyName)}`);
    case 'if':
      return undefined; // The failing then/else keywords are reported themselves.
    default:
      return issue(error.message ?? `fails the "${error.keyword}" rule`);
  }
}

function duplicatesMessage(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return 'must not contain duplicate items';
  return `must not contain duplicate items (items ${Math.min(a, b)} and ${Math.max(a, b)} are equal)`;
}

function containsMessage(min: unknown, max: unknown): string {
  if (typeof max === 'number' && (min === undefined || typeof min !== 'number'))
    return `must contain at most ${plural(max, 'matching item')}`;
  const least = typeof min === 'number' ? min : 1;
  return `must contain at least ${plural(least, 'matching item')}`;
}

// ---------------------------------------------------------------------------------------------
// @cfworker/json-schema

/** Keywords whose cfworker units only wrap the real errors that follow them. */
const CFWORKER_WRAPPERS = new Set([
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  'if',
  'dependentSchemas',
]);

/** Keywords after which a keyword location names a property, not a keyword. */
const NAME_FOLLOWS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
/** Keywords after which a keyword location holds an index. */
const INDEX_FOLLOWS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);

/**
 * cfworker's units → raw issues. `lookup` and `root` let a keyword's value (a pattern, a limit) be
 * read back from the schema, since cfworker's messages omit some of them.
 */
export function fromCfworker(
  units: readonly CfworkerUnitLike[],
  root: unknown,
  lookup: Record<string, unknown>,
): RawIssue[] {
  const issues: RawIssue[] = [];
  for (const unit of units) {
    const issue = fromCfworkerUnit(unit, root, lookup);
    if (issue) issues.push(issue);
  }
  return issues;
}

function fromCfworkerUnit(
  unit: CfworkerUnitLike,
  root: unknown,
  lookup: Record<string, unknown>,
): RawIssue | undefined {
  const { keyword, error } = unit;
  if (CFWORKER_WRAPPERS.has(keyword)) return undefined;
  if (keyword === 'dependencies' && error.includes('dependant schema')) return undefined;
  const keywordPath = pointerSegments(unit.keywordLocation.replace(/^#/, ''), true);
  // (cfworker gives a false schema's instance location as its keyword location.)
  if (keyword !== 'false' && insideKeyKeyword(keywordPath)) return undefined;
  const segments = pointerSegments(unit.instanceLocation.replace(/^#/, ''), true);
  const issue = (message: string, extra?: Partial<RawIssue>): RawIssue => ({
    segments,
    keyword,
    message,
    ...extra,
  });
  const schemaValue = (): unknown => valueAt(root, keywordPath, lookup);
  const quoted = [...error.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string);
  const numbers = [...error.matchAll(/-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi)].map((match) => Number(match[0]));

  switch (keyword) {
    case 'false':
      return issue(NOT_ALLOWED);
    case 'required':
      return { segments: [...segments, quoted[0] ?? '?'], keyword, message: 'is required' };
    case 'dependentRequired':
    case 'dependencies':
      return {
        segments: [...segments, quoted[1] ?? '?'],
        keyword: 'required',
        message: `is required when ${shown(quoted[0])} is present`,
      };
    case 'type': {
      const expected = error.slice(error.indexOf('Expected') + 'Expected'.length);
      const types = [...expected.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string);
      return issue(typeMessage(types), { types });
    }
    case 'enum': {
      const allowed = schemaValue();
      return issue(Array.isArray(allowed) ? listMessage(allowed) : 'must be one of the allowed values');
    }
    case 'const': {
      const allowed = schemaValue();
      return issue(allowed === undefined ? 'must be the required value' : `must be ${shown(allowed)}`);
    }
    case 'format':
      return issue(`must be a valid ${quoted[0] ?? 'value'}`);
    case 'pattern': {
      const pattern = schemaValue();
      return issue(
        typeof pattern === 'string' ? `must match the pattern ${pattern}` : 'must match the required pattern',
      );
    }
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties': {
      const limit = numericSchemaValue(schemaValue(), numbers[numbers.length - 1]);
      const least = keyword.startsWith('min') ? 'at least' : 'at most';
      const noun = keyword.endsWith('Length') ? 'character' : keyword.endsWith('Items') ? 'item' : 'property';
      return issue(`must have ${least} ${plural(limit, noun)}`);
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const limit = numericSchemaValue(schemaValue(), numbers[numbers.length - 1]);
      return issue(`must be ${COMPARISONS[keyword]} ${limit}`);
    }
    case 'multipleOf':
      return issue(`must be a multiple of ${numericSchemaValue(schemaValue(), numbers[numbers.length - 1])}`);
    case 'uniqueItems':
      return issue(duplicatesMessage(numbers[0] ?? Number.NaN, numbers[1] ?? Number.NaN));
    case 'contains':
      return issue(containsMessage(1, undefined));
    case 'minContains':
      return issue(
        containsMessage(numericSchemaValue(schemaValue(), numbers[numbers.length - 1]), undefined),
      );
    case 'maxContains':
      return issue(containsMessage(undefined, numericSchemaValue(schemaValue(), numbers[0])));
    case 'anyOf':
      return issue(NONE_MATCHED);
    case 'oneOf':
      return numbers[0] === 0 ? issue(NONE_MATCHED) : issue(SEVERAL_MATCHED, { keyword: 'oneOf+' });
    case 'not':
      return issue('must not match the excluded schema');
    case 'propertyNames':
      return issue(`has a property name that is not allowed: ${shown(quoted[0])}`);
    default:
      return issue(error.replace(/\.$/, ''));
  }
}

function numericSchemaValue(value: unknown, fallback: number | undefined): number {
  return typeof value === 'number' ? value : (fallback ?? Number.NaN);
}

/**
 * Units from inside propertyNames describe a key, and units from inside contains describe items that
 * were allowed not to match: the propertyNames/contains unit itself says what is wrong.
 */
function insideKeyKeyword(schemaPath: string[]): boolean {
  const enclosing = keywordPositions(schemaPath.slice(0, -1));
  return enclosing.includes('propertyNames') || enclosing.includes('contains');
}

/** The keywords along a schema location (names after `properties` and indexes after `allOf` skipped). */
function keywordPositions(path: string[]): string[] {
  const keywords: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as string;
    keywords.push(segment);
    if (NAME_FOLLOWS.has(segment)) i++;
    else if (INDEX_FOLLOWS.has(segment) && /^\d+$/.test(path[i + 1] ?? '')) i++;
  }
  return keywords;
}

/** Follows a cfworker keyword location through the schema, jumping across `$ref`s with its lookup. */
function valueAt(root: unknown, path: string[], lookup: Record<string, unknown>): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    if (segment === '$ref') {
      const record = node as Record<string, unknown>;
      const absolute = record.__absolute_ref__ ?? record.$ref;
      node = typeof absolute === 'string' ? lookup[absolute] : undefined;
    } else {
      node = (node as Record<string, unknown>)[segment];
    }
  }
  return node;
}

// ---------------------------------------------------------------------------------------------
// Paths and the final list

/** JSON Pointer → segments; cfworker also URI-encodes them. */
function pointerSegments(pointer: string, uriEncoded: boolean): string[] {
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => {
      let text = segment;
      if (uriEncoded) {
        try {
          text = decodeURIComponent(segment);
        } catch {
          // Leave a malformed escape as it is.
        }
      }
      return text.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** Renders pointer segments as `a.b[2]["odd key"]`, reading the value to tell indexes from keys. */
function renderPath(segments: readonly string[], value: unknown): string {
  if (segments.length === 0) return '(root)';
  let text = '';
  let node: unknown = value;
  for (const segment of segments) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(segment)) {
      text += `[${segment}]`;
      node = node[Number(segment)];
      continue;
    }
    text += IDENTIFIER.test(segment) ? `${text === '' ? '' : '.'}${segment}` : `[${JSON.stringify(segment)}]`;
    node =
      typeof node === 'object' && node !== null && Object.hasOwn(node, segment)
        ? (node as Record<string, unknown>)[segment]
        : undefined;
  }
  return text;
}

/**
 * Raw issues → the report's list: alternatives that failed only on their types merge into one
 * "must be a string or null"; the rest render, deduplicate, and stop at `maxIssues` plus a
 * `{ path: '…', message: 'and N more' }` line.
 */
export function finishIssues(raw: RawIssue[], value: unknown, maxIssues: number): SchemaIssue[] {
  const merged = mergeAlternatives(raw);
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  let hidden = 0;
  for (const item of merged) {
    const path = renderPath(item.segments, value);
    const key = `${path}\u0000${item.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (issues.length < maxIssues) issues.push({ path, message: item.message });
    else hidden++;
  }
  if (hidden > 0) issues.push({ path: '…', message: `and ${hidden} more` });
  return issues;
}

function mergeAlternatives(raw: RawIssue[]): RawIssue[] {
  let result = raw;
  for (const alternatives of raw) {
    if (alternatives.keyword !== 'anyOf' && alternatives.keyword !== 'oneOf') continue;
    const at = alternatives.segments.join('/');
    const within = (item: RawIssue): boolean => {
      const path = item.segments.join('/');
      return at === '' || path === at || path.startsWith(`${at}/`);
    };
    const others = result.filter(
      (item) => within(item) && item.keyword !== 'anyOf' && item.keyword !== 'oneOf',
    );
    if (
      others.length === 0 ||
      others.some((item) => item.keyword !== 'type' || item.segments.join('/') !== at)
    )
      continue;
    const types = others.flatMap((item) => item.types ?? []);
    const replacement: RawIssue = {
      segments: alternatives.segments,
      keyword: 'type',
      message: typeMessage(types),
      types,
    };
    const next: RawIssue[] = [];
    for (const item of result) {
      if (!within(item)) next.push(item);
      else if (!next.includes(replacement)) next.push(replacement);
    }
    result = next;
  }
  return result;
}
