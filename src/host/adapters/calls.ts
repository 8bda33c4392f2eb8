/**
 * A model's tool call, read back into Toolgate's terms: which server, which tool, which arguments.
 * Models do make mistakes here (a name never offered, arguments that are not JSON), so each problem
 * is a ToolgateError whose message names the tool and says what to send instead: the host can hand
 * it to errorForModel and answer the call with it, and the model can correct itself.
 */

import { isJsonObject, type JsonObject, ToolgateError } from '../../protocol/index.js';
import type { ToolNameMap, ToolRef } from './names.js';

/** A tool call a model made. */
export interface ModelToolCall extends ToolRef {
  /** The API's id for this call; the result must carry it back. */
  callId: string;
  /** The name the model used (some APIs want it back with the result). */
  modelName: string;
  arguments: JsonObject;
}

/** A model's tool call that cannot be run as given. Nothing was sent. */
export class ModelToolCallError extends ToolgateError {
  readonly kind = 'model-tool-call';
  constructor(
    readonly problem: 'unknown-tool' | 'invalid-arguments',
    /** The name the model used. */
    readonly modelName: string,
    message: string,
    readonly callId?: string,
  ) {
    super(message);
    this.name = 'ModelToolCallError';
  }
}

/** The tool behind the name a model used; throws when no offered tool has that name. */
export function resolveToolName(names: ToolNameMap, modelName: unknown, callId?: string): ToolRef {
  const name = typeof modelName === 'string' ? modelName : '';
  const ref = names.resolve(name);
  if (!ref)
    throw new ModelToolCallError(
      'unknown-tool',
      name,
      `There is no tool named "${name}". Call one of the tools you were given, by its exact name.`,
      callId,
    );
  return ref;
}

/** Arguments sent as a JSON string (OpenAI): parsed, and required to be one JSON object. */
export function parseJsonArguments(
  raw: unknown,
  modelName: string,
  ref: ToolRef,
  callId?: string,
): JsonObject {
  // An empty string is how some models send "no arguments" to a tool that takes none.
  if (typeof raw === 'string' && raw.trim() === '') return {};
  if (typeof raw !== 'string')
    throw invalidArguments(modelName, ref, 'they are missing (expected a JSON string)', callId);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw invalidArguments(
      modelName,
      ref,
      `they are not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      callId,
    );
  }
  return objectArguments(value, modelName, ref, callId);
}

/** Arguments sent as a JSON value (Anthropic, Gemini): required to be one object; absent means none. */
export function objectArguments(
  value: unknown,
  modelName: string,
  ref: ToolRef,
  callId?: string,
): JsonObject {
  if (value === undefined) return {};
  if (isJsonObject(value)) return value;
  throw invalidArguments(
    modelName,
    ref,
    `they are ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an object`,
    callId,
  );
}

function invalidArguments(modelName: string, ref: ToolRef, why: string, callId?: string): ModelToolCallError {
  return new ModelToolCallError(
    'invalid-arguments',
    modelName,
    `The arguments for tool "${modelName}" (${ref.toolName} on ${ref.serverId}) were not used: ${why}. ` +
      'Call the tool again with its arguments as one JSON object.',
    callId,
  );
}
