/**
 * OpenAI function calling, in both APIs: Chat Completions (`tools[].function`, `tool_calls`, `role:
 * 'tool'` messages) and Responses (flat function tools, `function_call` / `function_call_output`
 * items). Arguments arrive as a JSON string; results go back as text, since the chat `tool` message
 * has no error flag and no image parts.
 */

import type { JsonObject } from '../../protocol/index.js';
import { type ModelToolCall, parseJsonArguments, resolveToolName } from './calls.js';
import { declarable, type ServerTool } from './declarations.js';
import type { ToolNameMap } from './names.js';
import { type ToolOutcome, textWithErrorMark } from './outcome.js';
import { objectParameters } from './parameters.js';

export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters: JsonObject };
}

export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonObject;
  strict: false;
}

/** One entry of an assistant message's `tool_calls`. */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A `function_call` output item of a response. */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  status?: string;
}

export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/** Chat Completions `tools`. */
export function toOpenAIChatTools(tools: readonly ServerTool[], names: ToolNameMap): OpenAIChatTool[] {
  return declarable(tools, names).map(({ name, description, tool }) => ({
    type: 'function',
    function: {
      name,
      ...(description !== undefined ? { description } : {}),
      parameters: objectParameters(tool.inputSchema),
    },
  }));
}

/**
 * Responses `tools`. `strict: false` because strict mode demands a closed schema with every property
 * required, which MCP schemas rarely are; the gate validates the arguments against the real schema.
 */
export function toOpenAIResponsesTools(
  tools: readonly ServerTool[],
  names: ToolNameMap,
): OpenAIResponsesTool[] {
  return declarable(tools, names).map(({ name, description, tool }) => ({
    type: 'function',
    name,
    ...(description !== undefined ? { description } : {}),
    parameters: objectParameters(tool.inputSchema),
    strict: false,
  }));
}

/** Reads one Chat Completions tool call. Throws ModelToolCallError for an unknown name or bad arguments. */
export function fromOpenAIChatToolCall(toolCall: OpenAIChatToolCall, names: ToolNameMap): ModelToolCall {
  const callId = toolCall.id;
  const modelName = toolCall.function?.name;
  const ref = resolveToolName(names, modelName, callId);
  return {
    callId,
    modelName,
    ...ref,
    arguments: parseJsonArguments(toolCall.function.arguments, modelName, ref, callId),
  };
}

/** Reads one Responses `function_call` item. Throws ModelToolCallError for an unknown name or bad arguments. */
export function fromOpenAIResponsesFunctionCall(
  item: OpenAIResponsesFunctionCall,
  names: ToolNameMap,
): ModelToolCall {
  const callId = item.call_id;
  const ref = resolveToolName(names, item.name, callId);
  return {
    callId,
    modelName: item.name,
    ...ref,
    arguments: parseJsonArguments(item.arguments, item.name, ref, callId),
  };
}

/** The `role: 'tool'` message answering a Chat Completions tool call. */
export function toOpenAIChatToolMessage(callId: string, outcome: ToolOutcome): OpenAIChatToolMessage {
  return { role: 'tool', tool_call_id: callId, content: textWithErrorMark(outcome) };
}

/** The `function_call_output` input item answering a Responses function call. */
export function toOpenAIResponsesOutput(
  callId: string,
  outcome: ToolOutcome,
): OpenAIResponsesFunctionCallOutput {
  return { type: 'function_call_output', call_id: callId, output: textWithErrorMark(outcome) };
}
