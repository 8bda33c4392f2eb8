/**
 * MCP message shapes Toolgate reads, across revisions 2024-11-05 .. 2026-07-28. Fields a revision
 * added are optional; unknown fields are kept (servers are free to extend), hence the index signatures.
 */

import type { JsonObject } from './jsonrpc.js';

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  [key: string]: unknown;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
  [key: string]: unknown;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** A tool as a server declares it. Every field of every revision is kept. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  icons?: Icon[];
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required'; [key: string]: unknown };
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
  [key: string]: unknown;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}
export interface EmbeddedResource {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: JsonObject };
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** A complete tools/call result. `isError: true` is a tool execution error: a result, not an exception. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface ListToolsResult {
  tools: Tool[];
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  _meta?: JsonObject;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: JsonObject;
  completions?: JsonObject;
  experimental?: JsonObject;
  extensions?: JsonObject;
  [key: string]: unknown;
}

export interface ClientCapabilities {
  elicitation?: { form?: { applyDefaults?: boolean }; url?: JsonObject };
  roots?: { listChanged?: boolean };
  sampling?: JsonObject;
  experimental?: JsonObject;
  extensions?: JsonObject;
  [key: string]: unknown;
}

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** An elicitation request as the server sends it (legacy elicitation/create or a modern inputRequest). */
export interface ElicitRequestParams {
  mode?: 'form' | 'url';
  message: string;
  requestedSchema?: JsonObject;
  url?: string;
  elicitationId?: string;
  [key: string]: unknown;
}

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A server-to-client request carried in a modern `input_required` result. */
export interface InputRequest {
  method: string;
  params?: JsonObject;
}
