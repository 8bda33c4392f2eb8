/** Adapters between MCP tools and results and the tool-calling formats of model APIs. */

export {
  type AnthropicTool,
  type AnthropicToolResultBlock,
  type AnthropicToolResultContent,
  type AnthropicToolUseBlock,
  fromAnthropicToolUse,
  toAnthropicToolResult,
  toAnthropicTools,
} from './anthropic.js';
export {
  type AnthropicContentBlock,
  type AnthropicMessage,
  toAnthropicMessages,
} from './anthropic-messages.js';
export { type ModelToolCall, ModelToolCallError } from './calls.js';
export type { ServerTool } from './declarations.js';
export {
  fromGeminiFunctionCall,
  type GeminiFunctionCallPart,
  type GeminiFunctionDeclaration,
  type GeminiFunctionResponsePart,
  type GeminiTool,
  type GeminiToolCall,
  toGeminiFunctionResponse,
  toGeminiTools,
} from './gemini.js';
export { type GeminiContent, type GeminiPart, toGeminiContents } from './gemini-messages.js';
export { toGeminiSchema } from './gemini-schema.js';
export { resourceMessages } from './message-parts.js';
export {
  ANTHROPIC_TOOL_NAMES,
  createToolNameMap,
  GEMINI_TOOL_NAMES,
  OPENAI_TOOL_NAMES,
  type ToolNameEntry,
  type ToolNameMap,
  type ToolNameRules,
  type ToolRef,
} from './names.js';
export {
  fromOpenAIChatToolCall,
  fromOpenAIResponsesFunctionCall,
  type OpenAIChatTool,
  type OpenAIChatToolCall,
  type OpenAIChatToolMessage,
  type OpenAIResponsesFunctionCall,
  type OpenAIResponsesFunctionCallOutput,
  type OpenAIResponsesTool,
  toOpenAIChatToolMessage,
  toOpenAIChatTools,
  toOpenAIResponsesOutput,
  toOpenAIResponsesTools,
} from './openai.js';
export {
  type OpenAIChatContentPart,
  type OpenAIChatMessage,
  type OpenAIResponsesContentPart,
  type OpenAIResponsesMessage,
  toOpenAIChatMessages,
  toOpenAIResponsesInput,
} from './openai-messages.js';
export type { ToolOutcome } from './outcome.js';
export { objectParameters } from './parameters.js';
