/**
 * The argument schema OpenAI (`parameters`) and Anthropic (`input_schema`) accept: an object schema
 * at the root, with no oneOf / anyOf / allOf / enum / const / not there. Both APIs reject the whole
 * request when one tool breaks this, and MCP servers do publish such roots (a union of argument
 * shapes, a root `$ref`). Below the root the schema passes through unchanged.
 *
 * Loosening a union root to "all the properties of its branches" is safe: the gate validates the
 * model's arguments against the tool's real inputSchema before anything is sent, and tells the model
 * what to fix.
 */

import { isJsonObject, type JsonObject } from '../../protocol/index.js';
import { resolveLocalRef } from '../../schema/index.js';

const NOT_AT_ROOT = ['oneOf', 'anyOf', 'allOf', 'enum', 'const', 'not', '$ref'];
/** Deep enough for real schemas; stops a ref cycle at the root from looping. */
const MAX_DEPTH = 8;

/** The tool's input schema as an object schema with (possibly empty) `properties`. */
export function objectParameters(inputSchema: JsonObject): JsonObject {
  const base = followRef(inputSchema, inputSchema);
  const { properties, required } = collectShape(base, inputSchema, 0);
  const rest: JsonObject = Object.fromEntries(
    Object.entries(base).filter(
      ([key]) => !NOT_AT_ROOT.includes(key) && key !== 'type' && key !== 'properties' && key !== 'required',
    ),
  );
  // A root `$ref` was inlined: keep the definitions the inlined schema still points into.
  for (const key of ['$defs', 'definitions'])
    if (base !== inputSchema && inputSchema[key] !== undefined) rest[key] = inputSchema[key];
  return { ...rest, type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

interface Shape {
  properties: JsonObject;
  required: string[];
}

/** The properties an argument object may have and the ones it must have, across combinators. */
function collectShape(schema: JsonObject, root: JsonObject, depth: number): Shape {
  const node = followRef(schema, root);
  const properties: JsonObject = isJsonObject(node.properties) ? { ...node.properties } : {};
  const required = new Set(strings(node.required));
  if (depth >= MAX_DEPTH) return { properties, required: [...required] };

  const branchShapes = (key: string): Shape[] =>
    Array.isArray(node[key])
      ? (node[key] as unknown[]).filter(isJsonObject).map((branch) => collectShape(branch, root, depth + 1))
      : [];

  // allOf: every branch applies, so every branch's properties and requirements do.
  for (const shape of branchShapes('allOf')) {
    addMissing(properties, shape.properties);
    for (const name of shape.required) required.add(name);
  }
  // anyOf / oneOf: any branch may be the one that matches; only what all of them require is required.
  for (const key of ['anyOf', 'oneOf']) {
    const shapes = branchShapes(key);
    for (const shape of shapes) addMissing(properties, shape.properties);
    const first = shapes[0];
    if (first)
      for (const name of first.required)
        if (shapes.every((shape) => shape.required.includes(name))) required.add(name);
  }
  return { properties, required: [...required] };
}

/** A schema with its local `$ref` inlined (sibling keywords kept), or the schema itself. */
function followRef(schema: JsonObject, root: JsonObject): JsonObject {
  let node = schema;
  for (let hops = 0; typeof node.$ref === 'string' && hops < MAX_DEPTH; hops++) {
    const target = resolveLocalRef(root, node.$ref);
    if (!target) break;
    const { $ref: _ref, ...siblings } = node;
    node = { ...target, ...siblings };
  }
  return node;
}

/** Own keys only: a property named `constructor` or `__proto__` is a property like any other. */
function addMissing(into: JsonObject, from: JsonObject): void {
  for (const [key, value] of Object.entries(from))
    if (!Object.hasOwn(into, key))
      Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
