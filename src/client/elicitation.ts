/** Elicitation helpers shared by the legacy request handler and modern input_required rounds. */

import { type ElicitRequestParams, type ElicitResult, isJsonObject } from '../protocol/index.js';

/**
 * Fills fields the person left out with the defaults the server's schema declares (SEP-1034). We
 * declare `elicitation.form.applyDefaults`, so the server may rely on it.
 */
export function applyElicitationDefaults(request: ElicitRequestParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || (request.mode ?? 'form') !== 'form') return result;
  const properties = isJsonObject(request.requestedSchema) ? request.requestedSchema.properties : undefined;
  if (!isJsonObject(properties)) return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  for (const [key, schema] of Object.entries(properties))
    if (content[key] === undefined && isJsonObject(schema) && 'default' in schema)
      content[key] = schema.default;
  return { ...result, content };
}

/** Reads elicitation params from an untrusted object; undefined when they are not usable. */
export function asElicitRequest(params: unknown): ElicitRequestParams | undefined {
  if (!isJsonObject(params) || typeof params.message !== 'string') return undefined;
  return params as ElicitRequestParams;
}
