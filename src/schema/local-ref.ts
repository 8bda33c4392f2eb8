/**
 * Local `$ref` lookup (`#/$defs/Name`, `#/definitions/Name`, any JSON pointer into the same schema).
 * Used where a schema is walked rather than validated (the widget's form, the model-API adapters);
 * remote refs are never fetched (a tool definition must not make the host load anything).
 */

import { isJsonObject, type JsonObject } from '../protocol/index.js';

/** The subschema a local `$ref` points to, or undefined when it is remote, broken or not an object. */
export function resolveLocalRef(root: JsonObject, ref: string): JsonObject | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      // A malformed percent-escape names no subschema: the reference does not resolve.
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return isJsonObject(node) ? node : undefined;
}
