/**
 * Gemini function calling: `tools[].functionDeclarations`, `functionCall` parts from the model, and
 * `functionResponse` parts back. The response is a JSON object; Gemini reads an `output` key as the
 * function's output and an `error` key as its failure, which is how tool errors are flagged.
 */

import type { JsonObject } from '../../protocol/index.js';
import { type ModelToolCall, objectArguments, resolveToolName } from './calls.js';
import { declarable, type ServerTool } from './declarations.js';
import { toGeminiSchema } from './gemini-schema.js';
import type { ToolNameMap } from './names.js';
import { modelResultOf, type ToolOutcome, textOf } from './outcome.js';
import { objectParameters } from './parameters.js';

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** Absent for a tool without arguments: Gemini rejects an object schema with no properties. */
  parameters?: JsonObject;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A part of a model turn that calls a function. `id` is set by the APIs that track calls. */
export interface GeminiFunctionCallPart {
  functionCall: { name: string; args?: unknown; id?: string };
}

export interface GeminiFunctionResponsePart {
  functionResponse: {
    name: string;
    id?: string;
    response: { output: string } | { error: string };
  };
}

/** A Gemini call: its id is optional, since not every Gemini API gives one. */
export type GeminiToolCall = Omit<ModelToolCall, 'callId'> & { callId?: string };

/** Gemini `tools`: one Tool holding every declaration (none at all when there are no tools). */
export function toGeminiTools(tools: readonly ServerTool[], names: ToolNameMap): GeminiTool[] {
  const functionDeclarations = declarable(tools, names).map(({ name, description, tool }) => {
    const parameters = toGeminiSchema(objectParameters(tool.inputSchema), tool.inputSchema);
    return {
      name,
      ...(description !== undefined ? { description } : {}),
      ...(parameters.properties !== undefined ? { parameters } : {}),
    };
  });
  return functionDeclarations.length > 0 ? [{ functionDeclarations }] : [];
}

/** Reads one `functionCall` part. Throws ModelToolCallError for an unknown name or non-object args. */
export function fromGeminiFunctionCall(part: GeminiFunctionCallPart, names: ToolNameMap): GeminiToolCall {
  const { name, args, id } = part.functionCall;
  const ref = resolveToolName(names, name, id);
  return {
    ...(typeof id === 'string' ? { callId: id } : {}),
    modelName: name,
    ...ref,
    arguments: objectArguments(args, name, ref, id),
  };
}

/**
 * The `functionResponse` part answering a call: `name` is the name the model called, `id` the
 * call's id when it had one (parallel calls are matched by it).
 */
export function toGeminiFunctionResponse(
  name: string,
  outcome: ToolOutcome,
  id?: string,
): GeminiFunctionResponsePart {
  const result = modelResultOf(outcome);
  const text = textOf(result);
  return {
    functionResponse: {
      name,
      ...(id !== undefined ? { id } : {}),
      response: result.isError ? { error: text } : { output: text },
    },
  };
}
