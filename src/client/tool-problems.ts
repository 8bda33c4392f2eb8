/**
 * Why a listed tool is wrong, in words a person reads next to its name: a name that breaks the
 * 2025-11-25 naming rules, an entry that is not a tool. The catalog loads this with `import()` only
 * for a listing that has such a tool (tool-checks.ts holds the checks themselves).
 */

import { isJsonObject } from '../protocol/index.js';
import { TOOL_NAME } from './tool-name.js';

/** Why a name breaks the 2025-11-25 naming rules, or undefined when it follows them. */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > 128) return `the name is ${name.length} characters long (at most 128)`;
  if (!TOOL_NAME.test(name)) return 'the name has characters other than A-Z a-z 0-9 _ - .';
  return undefined;
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
