/**
 * Checks on tool definitions: the 2025-11-25 naming rules (warned, never dropped) and the 2026-07-28
 * `x-mcp-header` rules (a tool that breaks them MUST be excluded on HTTP).
 */

import { isJsonObject, type JsonObject, type Tool } from '../protocol/index.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Why a name breaks the 2025-11-25 naming rules, or undefined when it follows them. */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > 128) return `the name is ${name.length} characters long (at most 128)`;
  if (!TOOL_NAME.test(name)) return 'the name has characters other than A-Z a-z 0-9 _ - .';
  return undefined;
}

/** One header a tool asks to be mirrored from an argument. */
export interface HeaderBinding {
  header: string;
  path: string[];
}

const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const COMPOSITION_KEYS = [
  'items',
  'prefixItems',
  'additionalProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
  'patternProperties',
  'dependentSchemas',
  'contains',
];

/**
 * Reads the `x-mcp-header` bindings of an input schema, or says why they are invalid. Only
 * properties reachable through a chain of `properties` keys may carry one.
 */
export function headerBindings(schema: JsonObject): { bindings: HeaderBinding[] } | { problem: string } {
  const bindings: HeaderBinding[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];

  const visitReachable = (node: JsonObject, path: string[]): void => {
    if ('x-mcp-header' in node && path.length > 0) {
      const problem = bindingProblem(node, seen);
      if (problem) problems.push(`${path.join('.')}: ${problem}`);
      else {
        const header = String(node['x-mcp-header']);
        seen.add(header.toLowerCase());
        bindings.push({ header, path });
      }
    } else if ('x-mcp-header' in node) {
      problems.push('the schema root cannot carry x-mcp-header');
    }
    const properties = node.properties;
    if (isJsonObject(properties))
      for (const [key, child] of Object.entries(properties))
        if (isJsonObject(child)) visitReachable(child, [...path, key]);
    for (const key of COMPOSITION_KEYS) scanUnreachable(node[key], [...path, key]);
  };

  const scanUnreachable = (value: unknown, path: string[]): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) scanUnreachable(item, [...path, String(i)]);
    } else if (isJsonObject(value)) {
      if ('x-mcp-header' in value)
        problems.push(
          `${path.join('.')}: x-mcp-header is only allowed on properties reachable through "properties"`,
        );
      for (const [key, child] of Object.entries(value)) scanUnreachable(child, [...path, key]);
    }
  };

  visitReachable(schema, []);
  return problems.length > 0 ? { problem: problems.join('; ') } : { bindings };
}

function bindingProblem(node: JsonObject, seen: Set<string>): string | undefined {
  const header = node['x-mcp-header'];
  if (typeof header !== 'string' || header.length === 0) return 'x-mcp-header must be a non-empty string';
  if (!HEADER_TOKEN.test(header)) return `x-mcp-header "${header}" is not a valid header name token`;
  if (seen.has(header.toLowerCase())) return `x-mcp-header "${header}" is used twice`;
  const type = node.type;
  if (type !== 'string' && type !== 'integer' && type !== 'boolean')
    return 'x-mcp-header is only allowed on string, integer or boolean parameters';
  return undefined;
}

/** Mcp-Param-* headers for one call, encoded with `encode` (the transport's header-value encoder). */
export function mirroredHeaders(
  bindings: readonly HeaderBinding[],
  args: JsonObject,
  encode: (value: string) => string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { header, path } of bindings) {
    let value: unknown = args;
    for (const key of path) value = isJsonObject(value) ? value[key] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && !Number.isSafeInteger(value)) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    headers[`Mcp-Param-${header}`] = encode(String(value));
  }
  return headers;
}

/** How a person names a JSON value's type in a sentence. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return `a ${typeof value}`;
  }
}

const FIX = 'the server must fix its tool definition';

/**
 * Why a listed value cannot be a tool (a person reads it next to the tool's name, and a refused call
 * repeats it), or undefined when it has a string name and an object input schema.
 */
export function toolShapeProblem(value: unknown): string | undefined {
  if (!isJsonObject(value)) return `the listing entry is ${jsonTypeOf(value)}, not an object: ${FIX}`;
  if (typeof value.name !== 'string')
    return `its name is ${'name' in value ? jsonTypeOf(value.name) : 'missing'}, not a string: ${FIX}`;
  if (!('inputSchema' in value) || value.inputSchema === undefined)
    return `it has no inputSchema (an object is required): ${FIX}`;
  if (!isJsonObject(value.inputSchema))
    return `inputSchema is ${jsonTypeOf(value.inputSchema)}, not an object: ${FIX}`;
  return undefined;
}

/** True when the value looks like a Tool: a name and an object input schema. */
export function isToolShape(value: unknown): value is Tool {
  return isJsonObject(value) && typeof value.name === 'string' && isJsonObject(value.inputSchema);
}
