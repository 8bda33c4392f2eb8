/**
 * Shapes what came out of the gate for a language model: text it can read, structured JSON when the
 * tool gave some, and errors phrased so the model can correct itself (tool errors and invalid
 * arguments) or stop (denials).
 */

import {
  type ContentBlock,
  RequestCancelledError,
  RequestTimeoutError,
  ToolgateError,
} from '../protocol/index.js';
import { DeniedError, InvalidArgumentsError } from './errors.js';
import type { GateResult } from './pipeline.js';

export interface ModelToolResult {
  isError: boolean;
  text: string;
  /** The tool's structuredContent, when it gave some. */
  structured?: unknown;
}

/** A completed call: tool execution errors stay results, so the model can self-correct. */
export function resultForModel(outcome: GateResult): ModelToolResult {
  const { result, outputValidation } = outcome;
  const parts = result.content.filter(forAssistant).map(describeBlock);
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  if (outputValidation?.status === 'invalid')
    parts.push(
      `(Toolgate: the structured output does not match the tool's output schema: ${outputValidation.issues
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join('; ')})`,
    );
  return {
    isError: result.isError === true,
    text: parts.join('\n'),
    ...(result.structuredContent !== undefined ? { structured: result.structuredContent } : {}),
  };
}

/** A call that did not complete, phrased for the model. */
export function errorForModel(error: unknown): ModelToolResult {
  if (error instanceof InvalidArgumentsError)
    return {
      isError: true,
      text: `The call was not made: the arguments do not match the tool's input schema. ${error.issues
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join('; ')}. Correct the arguments and call again.`,
    };
  if (error instanceof DeniedError)
    return {
      isError: true,
      text:
        error.by === 'person'
          ? `The user denied this tool call${error.reason ? `: ${error.reason}` : ''}. Do not retry it unless the user asks.`
          : `This tool call is not allowed by the user's policy: ${error.reason}. Do not retry it.`,
    };
  if (error instanceof RequestTimeoutError)
    return { isError: true, text: `The tool call timed out: ${error.message}` };
  if (error instanceof RequestCancelledError) return { isError: true, text: 'The tool call was cancelled.' };
  if (error instanceof ToolgateError)
    return { isError: true, text: `The tool call failed: ${error.message}` };
  return {
    isError: true,
    text: `The tool call failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/** Content meant for the user only (audience: ['user']) is not shown to the model. */
function forAssistant(block: ContentBlock): boolean {
  const audience = block.annotations?.audience;
  return !Array.isArray(audience) || audience.includes('assistant');
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${block.title ?? block.name} <${block.uri}>]`;
    case 'resource':
      return typeof block.resource.text === 'string'
        ? block.resource.text
        : `[embedded resource: ${block.resource.uri}${block.resource.mimeType ? `, ${block.resource.mimeType}` : ''}]`;
    default:
      return `[content of type ${String((block as { type?: unknown }).type)}]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
