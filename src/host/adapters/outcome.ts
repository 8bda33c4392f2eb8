/**
 * What a tool call ended in, as the adapters take it: the gate's result, or the error the call failed
 * with (denied, invalid arguments, timed out, a model call naming no known tool...). The words come
 * from resultForModel / errorForModel, so every model API tells the model the same thing.
 */

import { errorForModel, type GateResult, type ModelToolResult, resultForModel } from '../../gate/index.js';
import type { ContentBlock } from '../../protocol/index.js';

/** A completed call (tool errors included, as `result.isError`), or the error a call failed with. */
export type ToolOutcome = GateResult | { error: unknown };

/** Said instead of nothing: some APIs reject an empty tool result, and a model reads silence badly. */
const NO_CONTENT_TEXT = '(The tool returned no content.)';
const NO_ERROR_DETAILS = 'The tool reported an error without details.';

export function isFailure(outcome: ToolOutcome): outcome is { error: unknown } {
  return !('invocationId' in outcome) && 'error' in outcome;
}

/**
 * The outcome phrased for the model. `leaveOut` drops content blocks an adapter sends in its own
 * form (Anthropic's image blocks), so they are not also described in the text.
 */
export function modelResultOf(
  outcome: ToolOutcome,
  leaveOut?: (block: ContentBlock) => boolean,
): ModelToolResult {
  if (isFailure(outcome)) return errorForModel(outcome.error);
  if (!leaveOut) return resultForModel(outcome);
  const content = outcome.result.content.filter((block) => !leaveOut(block));
  return resultForModel({ ...outcome, result: { ...outcome.result, content } });
}

/** For APIs with an error flag beside the text (Anthropic, Gemini): the text alone, never empty. */
export function textOf(result: ModelToolResult): string {
  return result.text || (result.isError ? NO_ERROR_DETAILS : NO_CONTENT_TEXT);
}

/**
 * For APIs without an error flag (OpenAI): the model sees only the text, so a tool's error result
 * must say it is one. Failures from errorForModel already say so.
 */
export function textWithErrorMark(outcome: ToolOutcome): string {
  const result = modelResultOf(outcome);
  if (isFailure(outcome) || !result.isError) return textOf(result);
  return result.text ? `The tool reported an error: ${result.text}` : NO_ERROR_DETAILS;
}
