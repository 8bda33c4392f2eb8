/**
 * Checks on tool definitions: the 2025-11-25 naming rules (warned, never dropped) and the 2026-07-28
 * `x-mcp-header` rules (a tool that breaks them MUST be excluded on HTTP). Why a name or a listing
 * entry is wrong is worded in tool-problems.ts, loaded only for a listing that has such a tool.
 */

import { isJsonObject, type JsonObject, type Tool } from '../protocol/index.js';

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

/** True when the value looks like a Tool: a name and an object input schema. */
export function isToolShape(value: unknown): value is Tool {
  return isJsonObject(value) && typeof value.name === 'string' && isJsonObject(value.inputSchema);
}
