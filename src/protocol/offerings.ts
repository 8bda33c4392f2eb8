/**
 * What a server offers besides tools: resources, resource templates, prompts and argument
 * completion, as the spec's result objects (2024-11-05 .. 2026-07-28). Types only: the parsers that
 * make a server's answer fit them are in offerings-parse.ts, loaded with the methods that need them.
 */

import type { JsonObject } from './jsonrpc.js';
import type { ContentAnnotations, ContentBlock, Icon, ResourceLink } from './types.js';

/**
 * A resource as `resources/list` describes it: the fields of a resource link in a result (its
 * `size` is the server's claim, a hint: a read is checked on what arrives), without its `type`.
 */
export interface Resource extends Omit<ResourceLink, 'type'> {
  [key: string]: unknown;
}

/** A parameterised resource (RFC 6570 URI template) as `resources/templates/list` describes it. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** One item of a read: text, or binary as base64 in `blob` (exactly one of the two). */
export type ResourceContents = TextResourceContents | BlobResourceContents;
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64 (checked: only well-formed base64 is kept). */
  blob: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** Fields every listing result may carry: the next page's cursor, and 2026-07-28's cache hints. */
interface PagedResult {
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  _meta?: JsonObject;
}

export interface ListResourcesResult extends PagedResult {
  resources: Resource[];
}
export interface ListResourceTemplatesResult extends PagedResult {
  resourceTemplates: ResourceTemplate[];
}
export interface ReadResourceResult {
  contents: ResourceContents[];
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  _meta?: JsonObject;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as `prompts/list` describes it. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface ListPromptsResult extends PagedResult {
  prompts: Prompt[];
}
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}

/** What a completion is for: a prompt's argument, or a resource template's URI variable. */
export type CompletionReference =
  | { type: 'ref/prompt'; name: string }
  | { type: 'ref/resource'; uri: string };

/** `completion/complete` parameters, as the SDK's `Client.complete` takes them. */
export interface CompleteRequestParams {
  ref: CompletionReference;
  argument: { name: string; value: string };
  /** Values already chosen for the other arguments (2025-06-18 and later). */
  context?: { arguments?: Record<string, string> };
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: JsonObject;
}

/** What a listing or a read dropped or repaired, one sentence each (for a panel's warnings). */
export interface ParseNote {
  /** Where in the answer: `resources[3]`, `contents[0].mimeType`, `nextCursor`. */
  path: string;
  message: string;
}
