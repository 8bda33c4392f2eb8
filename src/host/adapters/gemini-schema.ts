/**
 * Gemini's function `parameters` take a select subset of the OpenAPI 3.0 schema object, not JSON
 * Schema: an unknown keyword (`$schema`, `additionalProperties`, `$defs`, `const`...) fails the whole
 * request, and there are no refs or type lists. This rewrites a JSON Schema into that subset, keeping
 * what tells the model what to send: type, description, properties, required, items, enum, nullable,
 * anyOf, and the formats Gemini documents.
 *
 * What is lost only makes the model's guidance coarser: the gate validates the arguments against the
 * tool's real schema before anything is sent.
 */

import { isJsonObject, type JsonObject } from '../../protocol/index.js';
import { resolveLocalRef } from '../../schema/index.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
/** The formats Gemini's Schema documents per type; others are dropped rather than risk a rejection. */
const FORMATS: Record<string, readonly string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};
/** Stops pathological nesting; real schemas are far shallower. */
const MAX_DEPTH = 32;

interface Context {
  root: JsonObject;
  /** Refs being inlined above this node: meeting one again means recursion. */
  refs: ReadonlySet<string>;
  depth: number;
}

/** A JSON Schema rewritten for Gemini. `root` is where local `$ref`s point (the tool's inputSchema). */
export function toGeminiSchema(schema: JsonObject, root: JsonObject = schema): JsonObject {
  return convert(schema, { root, refs: new Set(), depth: 0 });
}

function convert(input: unknown, context: Context): JsonObject {
  if (!isJsonObject(input) || context.depth > MAX_DEPTH) return {};
  const { node, refs } = inlineRefs(input, context);
  const inner: Context = { root: context.root, refs, depth: context.depth + 1 };

  const types = typeList(node.type);
  const concrete = types.filter((type) => TYPES.has(type));
  // Several types become anyOf of one schema per type; `null` among them becomes nullable.
  if (concrete.length > 1) {
    const branches = concrete.map((type) =>
      convert({ ...node, type, anyOf: undefined, oneOf: undefined }, inner),
    );
    return { ...describe(node), ...(types.includes('null') ? { nullable: true } : {}), anyOf: branches };
  }

  let out: JsonObject = {};
  const type = concrete[0] ?? impliedType(node);
  if (type) out.type = type;
  Object.assign(out, describe(node));
  if (node.nullable === true || types.includes('null')) out.nullable = true;

  const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values) {
    if ((type === undefined || type === 'string') && values.every((value) => typeof value === 'string')) {
      out.type = 'string';
      out.enum = values;
    } else {
      // Gemini's enum is for strings only; the other allowed values are still worth telling the model.
      const allowed = `Allowed values: ${values.map((value) => JSON.stringify(value)).join(', ')}.`;
      out.description = typeof out.description === 'string' ? `${out.description} ${allowed}` : allowed;
    }
  }
  const outType = typeof out.type === 'string' ? out.type : undefined;
  if (outType && typeof node.format === 'string' && FORMATS[outType]?.includes(node.format))
    out.format = node.format;

  if (outType === 'object') Object.assign(out, objectParts(node, inner));
  if (outType === 'array') out.items = arrayItems(node, inner);

  out = mergeAllOf(out, node, inner);
  return mergeUnion(out, node, inner);
}

/** Inlines local refs (siblings win); a recursive ref is cut to a shallow stand-in of its target. */
function inlineRefs(input: JsonObject, context: Context): { node: JsonObject; refs: ReadonlySet<string> } {
  let node = input;
  let refs = context.refs;
  while (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const target = resolveLocalRef(context.root, ref);
    const { $ref: _ref, ...siblings } = node;
    if (!target) return { node: siblings, refs };
    if (refs.has(ref)) {
      // Inlining again would never end; the type and description still guide the model.
      const standIn: JsonObject = {};
      if (target.type !== undefined) standIn.type = target.type;
      if (typeof target.description === 'string') standIn.description = target.description;
      return { node: { ...standIn, ...siblings }, refs };
    }
    refs = new Set([...refs, ref]);
    node = { ...target, ...siblings };
  }
  return { node, refs };
}

function objectParts(node: JsonObject, context: Context): JsonObject {
  const out: JsonObject = {};
  // fromEntries defines own keys, so even a property named `__proto__` stays a property.
  const properties: JsonObject = isJsonObject(node.properties)
    ? Object.fromEntries(
        Object.entries(node.properties).map(([name, schema]) => [name, convert(schema, context)]),
      )
    : {};
  // Gemini rejects an OBJECT with empty `properties`; a free-form object is just `type: object`.
  if (Object.keys(properties).length > 0) out.properties = properties;
  // A required name with no property behind it is rejected too.
  const required = Array.isArray(node.required)
    ? node.required.filter(
        (name): name is string => typeof name === 'string' && Object.hasOwn(properties, name),
      )
    : [];
  if (required.length > 0) out.required = [...new Set(required)];
  return out;
}

/**
 * Gemini rejects an array without typed `items`. Tuples (an items array) keep their first element's
 * schema; an unconstrained element becomes a string, the one type any value can be written in.
 */
function arrayItems(node: JsonObject, context: Context): JsonObject {
  const source = Array.isArray(node.items)
    ? node.items[0]
    : Array.isArray(node.prefixItems)
      ? node.prefixItems[0]
      : node.items;
  const items = convert(source, context);
  return items.type !== undefined || items.anyOf !== undefined ? items : { ...items, type: 'string' };
}

/** allOf: every branch applies, so their properties and requirements are merged into one schema. */
function mergeAllOf(out: JsonObject, node: JsonObject, context: Context): JsonObject {
  if (!Array.isArray(node.allOf)) return out;
  let merged = out;
  for (const branch of node.allOf) {
    const converted = convert(branch, context);
    const properties = {
      ...(isJsonObject(converted.properties) ? converted.properties : {}),
      ...(isJsonObject(merged.properties) ? merged.properties : {}),
    };
    const required = [...new Set([...strings(merged.required), ...strings(converted.required)])];
    merged = { ...converted, ...merged };
    delete merged.properties;
    delete merged.required;
    if (Object.keys(properties).length > 0) merged.properties = properties;
    const known = required.filter((name) => Object.hasOwn(properties, name));
    if (known.length > 0) merged.required = known;
  }
  return merged;
}

/** anyOf / oneOf: null branches become nullable; one remaining branch is merged in, several stay anyOf. */
function mergeUnion(out: JsonObject, node: JsonObject, context: Context): JsonObject {
  const branches = [...arrayOf(node.anyOf), ...arrayOf(node.oneOf)];
  if (branches.length === 0) return out;
  const nonNull = branches.filter((branch) => !isNullSchema(branch));
  const merged: JsonObject = { ...out };
  if (nonNull.length < branches.length) merged.nullable = true;
  if (nonNull.length === 1) return { ...convert(nonNull[0], context), ...merged };
  if (nonNull.length > 1) merged.anyOf = nonNull.map((branch) => convert(branch, context));
  return merged;
}

function describe(node: JsonObject): JsonObject {
  // Gemini has no `title` worth relying on; a title alone is better said as the description.
  const text = typeof node.description === 'string' ? node.description : node.title;
  return typeof text === 'string' && text ? { description: text } : {};
}

function impliedType(node: JsonObject): string | undefined {
  if (isJsonObject(node.properties)) return 'object';
  if (node.items !== undefined || node.prefixItems !== undefined) return 'array';
  return undefined;
}

function typeList(type: unknown): string[] {
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

function isNullSchema(schema: unknown): boolean {
  if (!isJsonObject(schema)) return false;
  const types = typeList(schema.type);
  return (types.length > 0 && types.every((type) => type === 'null')) || schema.const === null;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
