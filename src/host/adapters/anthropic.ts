/**
 * Anthropic Messages tool use: `tools[]` with `input_schema`, `tool_use` blocks from the model, and
 * `tool_result` blocks back. A tool_result can carry images and has an `is_error` flag, so images a
 * tool returns reach the model as images and tool errors are flagged rather than described.
 */

import type { ContentBlock, ImageContent, JsonObject } from '../../protocol/index.js';
import { type ModelToolCall, objectArguments, resolveToolName } from './calls.js';
import { declarable, type ServerTool } from './declarations.js';
import type { ToolNameMap } from './names.js';
import { isFailure, modelResultOf, type ToolOutcome, textOf } from './outcome.js';
import { objectParameters } from './parameters.js';

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: JsonObject;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicToolResultContent[];
  is_error?: true;
}

/** The image types the Messages API accepts; others stay described in the text. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** Messages API `tools`. */
export function toAnthropicTools(tools: readonly ServerTool[], names: ToolNameMap): AnthropicTool[] {
  return declarable(tools, names).map(({ name, description, tool }) => ({
    name,
    ...(description !== undefined ? { description } : {}),
    input_schema: objectParameters(tool.inputSchema),
  }));
}

/** Reads one `tool_use` block. Throws ModelToolCallError for an unknown name or a non-object input. */
export function fromAnthropicToolUse(block: AnthropicToolUseBlock, names: ToolNameMap): ModelToolCall {
  const ref = resolveToolName(names, block.name, block.id);
  return {
    callId: block.id,
    modelName: block.name,
    ...ref,
    arguments: objectArguments(block.input, block.name, ref, block.id),
  };
}

/** The `tool_result` block answering a `tool_use` (it goes in the next user message). */
export function toAnthropicToolResult(toolUseId: string, outcome: ToolOutcome): AnthropicToolResultBlock {
  const images = isFailure(outcome) ? [] : outcome.result.content.filter(sendableImage);
  const result = modelResultOf(outcome, (block) => images.includes(block as ImageContent));
  const content: AnthropicToolResultContent[] = [];
  // An empty text block is rejected by the API, so text goes in only when there is some (or nothing else).
  if (result.text || images.length === 0) content.push({ type: 'text', text: textOf(result) });
  for (const image of images)
    content.push({
      type: 'image',
      source: { type: 'base64', media_type: mediaType(image.mimeType) ?? image.mimeType, data: image.data },
    });
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content,
    ...(result.isError ? { is_error: true as const } : {}),
  };
}

/** An image the API can take, and that is meant for the model (not `audience: ['user']` only). */
function sendableImage(block: ContentBlock): block is ImageContent {
  if (block.type !== 'image' || mediaType(block.mimeType) === undefined || !block.data) return false;
  const audience = block.annotations?.audience;
  return !Array.isArray(audience) || audience.includes('assistant');
}

/** The API's spelling of an image type (servers send `image/PNG`, `image/jpg`), or undefined if unsupported. */
function mediaType(mimeType: string): string | undefined {
  const type = mimeType.trim().toLowerCase();
  const normal = type === 'image/jpg' ? 'image/jpeg' : type;
  return IMAGE_TYPES.has(normal) ? normal : undefined;
}
