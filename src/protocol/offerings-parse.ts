/**
 * Defensive readers for what servers send back about resources, templates, prompts and
 * completions. A server's answer is untrusted input: an item that cannot be used (no URI, a URI
 * without a scheme, text and blob both or neither, base64 that is not) is dropped with a note; an
 * optional field that is malformed (a MIME type, a size, a title) is removed with a note and the
 * item kept. Nothing here throws on what a server sent: only an answer whose list itself is missing
 * is unusable, and the caller decides what that means.
 */

import { isJsonObject, type JsonObject } from './jsonrpc.js';
import type {
  CompleteResult,
  GetPromptResult,
  ParseNote,
  Prompt,
  PromptArgument,
  PromptMessage,
  Resource,
  ResourceContents,
  ResourceTemplate,
} from './offerings.js';
import type { ContentBlock } from './types.js';

/** Longer URIs and cursors are not kept: no real resource needs them, and they cost memory per row. */
const MAX_URI_LENGTH = 8192;
const MAX_CURSOR_LENGTH = 4096;
/** The spec's cap on completion values per answer. */
export const MAX_COMPLETION_VALUES = 100;

/** A parsed value and what was dropped or repaired on the way. */
export interface Parsed<T> {
  value: T;
  notes: ParseNote[];
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
// RFC 6838 type/subtype (restricted-name characters), optional parameters after ';'.
const MIME = /^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}\/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/;
// Standard base64 with optional padding; whitespace is not allowed inside (servers send one line).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** Why a URI cannot be used, or undefined: a scheme, no control characters, a bounded length. */
export function uriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri === '') return 'it has no URI';
  if (uri.length > MAX_URI_LENGTH) return `its URI is longer than ${MAX_URI_LENGTH} characters`;
  if (!SCHEME.test(uri)) return 'its URI has no scheme';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(uri)) return 'its URI contains control characters';
  return undefined;
}

export function isMimeType(value: unknown): value is string {
  return typeof value === 'string' && MIME.test(value);
}

export function isBase64(value: unknown): value is string {
  return typeof value === 'string' && value.length % 4 !== 1 && BASE64.test(value);
}

/** Bytes of base64 data once decoded (no decoding needed). */
export function base64Bytes(blob: string): number {
  const padding = blob.endsWith('==') ? 2 : blob.endsWith('=') ? 1 : 0;
  return Math.floor((blob.length * 3) / 4) - padding;
}

/** The next page's cursor, or undefined (end); a malformed one ends the listing with a note. */
export function parseCursor(result: JsonObject, notes: ParseNote[]): string | undefined {
  const cursor = result.nextCursor;
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== 'string' || cursor === '' || cursor.length > MAX_CURSOR_LENGTH) {
    notes.push({
      path: 'nextCursor',
      message: 'the next-page cursor is not a usable string, so the listing stops at this page',
    });
    return undefined;
  }
  return cursor;
}

/** Reads one page's array member; a missing or non-array member is unusable (undefined). */
export function pageItems(result: JsonObject, key: string): unknown[] | undefined {
  const items = result[key];
  return Array.isArray(items) ? items : undefined;
}

/** Keeps the optional display fields that have the right type, noting the others. */
function displayFields(item: JsonObject, path: string, notes: ParseNote[]): JsonObject {
  const out: JsonObject = { ...item };
  for (const key of ['title', 'description'] as const)
    if (out[key] !== undefined && typeof out[key] !== 'string') {
      delete out[key];
      notes.push({ path: `${path}.${key}`, message: `"${key}" is not text; it was left out` });
    }
  for (const key of ['icons'] as const)
    if (out[key] !== undefined && !Array.isArray(out[key])) {
      delete out[key];
      notes.push({ path: `${path}.${key}`, message: `"${key}" is not a list; it was left out` });
    }
  for (const key of ['annotations', '_meta'] as const)
    if (out[key] !== undefined && !isJsonObject(out[key])) {
      delete out[key];
      notes.push({ path: `${path}.${key}`, message: `"${key}" is not an object; it was left out` });
    }
  if (out.mimeType !== undefined && !isMimeType(out.mimeType)) {
    delete out.mimeType;
    notes.push({ path: `${path}.mimeType`, message: 'the MIME type is malformed; it was left out' });
  }
  return out;
}

function named(item: JsonObject): boolean {
  return typeof item.name === 'string' && item.name !== '';
}

/** One `resources/list` item, or undefined (dropped, with a note). */
export function parseResource(item: unknown, path: string, notes: ParseNote[]): Resource | undefined {
  if (!isJsonObject(item)) return drop(notes, path, 'it is not an object');
  const problem = uriProblem(item.uri) ?? (named(item) ? undefined : 'it has no name');
  if (problem) return drop(notes, path, problem);
  const out = displayFields(item, path, notes);
  if (out.size !== undefined && !(Number.isSafeInteger(out.size) && (out.size as number) >= 0)) {
    delete out.size;
    notes.push({ path: `${path}.size`, message: 'the size is not a whole number of bytes; it was left out' });
  }
  return out as Resource;
}

/** One `resources/templates/list` item, or undefined (dropped, with a note). */
export function parseResourceTemplate(
  item: unknown,
  path: string,
  notes: ParseNote[],
): ResourceTemplate | undefined {
  if (!isJsonObject(item)) return drop(notes, path, 'it is not an object');
  const template = item.uriTemplate;
  if (typeof template !== 'string' || template === '') return drop(notes, path, 'it has no URI template');
  if (template.length > MAX_URI_LENGTH)
    return drop(notes, path, `its URI template is longer than ${MAX_URI_LENGTH} characters`);
  if (!named(item)) return drop(notes, path, 'it has no name');
  return displayFields(item, path, notes) as ResourceTemplate;
}

/** One `prompts/list` item, or undefined; malformed arguments are dropped one by one. */
export function parsePrompt(item: unknown, path: string, notes: ParseNote[]): Prompt | undefined {
  if (!isJsonObject(item)) return drop(notes, path, 'it is not an object');
  if (!named(item)) return drop(notes, path, 'it has no name');
  const out = displayFields(item, path, notes);
  if (out.arguments !== undefined) {
    if (!Array.isArray(out.arguments)) {
      delete out.arguments;
      notes.push({ path: `${path}.arguments`, message: '"arguments" is not a list; it was left out' });
    } else {
      const args: PromptArgument[] = [];
      const seen = new Set<string>();
      for (const [index, arg] of out.arguments.entries()) {
        const argPath = `${path}.arguments[${index}]`;
        if (!isJsonObject(arg) || !named(arg)) drop(notes, argPath, 'it has no name');
        else if (seen.has(arg.name as string)) drop(notes, argPath, 'its name is listed twice');
        else if (arg.required !== undefined && typeof arg.required !== 'boolean')
          drop(notes, argPath, '"required" is not true or false');
        else {
          seen.add(arg.name as string);
          args.push(displayFields(arg, argPath, notes) as unknown as PromptArgument);
        }
      }
      out.arguments = args as unknown as JsonObject[];
    }
  }
  return out as Prompt;
}

/** One item of a `resources/read` answer: text or base64 blob, exactly one. */
function parseResourceContents(
  item: unknown,
  path: string,
  notes: ParseNote[],
): ResourceContents | undefined {
  if (!isJsonObject(item)) return drop(notes, path, 'it is not an object');
  const problem = uriProblem(item.uri);
  if (problem) return drop(notes, path, problem);
  const hasText = item.text !== undefined;
  const hasBlob = item.blob !== undefined;
  if (hasText === hasBlob)
    return drop(notes, path, hasText ? 'it has both text and a blob' : 'it has neither text nor a blob');
  if (hasText && typeof item.text !== 'string') return drop(notes, path, '"text" is not text');
  if (hasBlob && !isBase64(item.blob)) return drop(notes, path, '"blob" is not base64');
  const out = { ...item };
  if (out.mimeType !== undefined && !isMimeType(out.mimeType)) {
    delete out.mimeType;
    notes.push({ path: `${path}.mimeType`, message: 'the MIME type is malformed; it was left out' });
  }
  if (out._meta !== undefined && !isJsonObject(out._meta)) delete out._meta;
  return out as ResourceContents;
}

/** Bytes of one contents item: UTF-8 length of its text, or the decoded length of its blob. */
export function contentsBytes(contents: ResourceContents): number {
  return 'text' in contents && typeof contents.text === 'string'
    ? new TextEncoder().encode(contents.text).length
    : base64Bytes((contents as { blob: string }).blob);
}

/** A `resources/read` answer, or undefined when it has no `contents` list at all. */
export function parseReadResult(result: JsonObject): Parsed<{ contents: ResourceContents[] }> | undefined {
  const items = pageItems(result, 'contents');
  if (!items) return undefined;
  const notes: ParseNote[] = [];
  const contents = keep(items, 'contents', notes, parseResourceContents);
  const { resultType: _resultType, ...rest } = result;
  return { value: { ...rest, contents }, notes };
}

/** One content block of a prompt message (text, image, audio, resource link, embedded resource). */
function parseContentBlock(block: unknown, path: string, notes: ParseNote[]): ContentBlock | undefined {
  if (!isJsonObject(block) || typeof block.type !== 'string') return drop(notes, path, 'it has no type');
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string'
        ? (block as unknown as ContentBlock)
        : drop(notes, path, 'a text block without text');
    case 'image':
    case 'audio':
      if (!isBase64(block.data)) return drop(notes, path, `an ${block.type} block whose data is not base64`);
      if (!isMimeType(block.mimeType)) return drop(notes, path, `an ${block.type} block without a MIME type`);
      return block as unknown as ContentBlock;
    case 'resource_link': {
      const problem = uriProblem(block.uri) ?? (named(block) ? undefined : 'it has no name');
      return problem ? drop(notes, path, `a resource link: ${problem}`) : (block as unknown as ContentBlock);
    }
    case 'resource': {
      const resource = parseResourceContents(block.resource, `${path}.resource`, notes);
      return resource
        ? ({ ...block, resource } as unknown as ContentBlock)
        : drop(notes, path, 'an unusable embedded resource');
    }
    default:
      return drop(notes, path, `an unknown content type "${block.type}"`);
  }
}

/** A `prompts/get` answer, or undefined when it has no `messages` list at all. */
export function parseGetPromptResult(result: JsonObject): Parsed<GetPromptResult> | undefined {
  const items = pageItems(result, 'messages');
  if (!items) return undefined;
  const notes: ParseNote[] = [];
  const messages = keep(items, 'messages', notes, (item, path, into): PromptMessage | undefined => {
    if (!isJsonObject(item)) return drop(into, path, 'it is not an object');
    if (item.role !== 'user' && item.role !== 'assistant')
      return drop(into, path, 'its role is neither "user" nor "assistant"');
    const content = parseContentBlock(item.content, `${path}.content`, into);
    return content ? { role: item.role, content } : undefined;
  });
  const { resultType: _resultType, ...rest } = result;
  const value: GetPromptResult = { ...rest, messages };
  if (value.description !== undefined && typeof value.description !== 'string') delete value.description;
  return { value, notes };
}

/** A `completion/complete` answer: at most 100 string values; anything else in the list is dropped. */
export function parseCompleteResult(result: JsonObject): Parsed<CompleteResult> | undefined {
  const completion = result.completion;
  if (!isJsonObject(completion) || !Array.isArray(completion.values)) return undefined;
  const notes: ParseNote[] = [];
  const values = completion.values.filter((value): value is string => typeof value === 'string');
  if (values.length < completion.values.length)
    notes.push({ path: 'completion.values', message: 'values that are not text were dropped' });
  if (values.length > MAX_COMPLETION_VALUES) {
    notes.push({
      path: 'completion.values',
      message: `more than ${MAX_COMPLETION_VALUES} values; the rest were dropped`,
    });
    values.length = MAX_COMPLETION_VALUES;
  }
  const total = completion.total;
  const hasMore = completion.hasMore;
  return {
    value: {
      completion: {
        values,
        ...(Number.isSafeInteger(total) && (total as number) >= 0 ? { total: total as number } : {}),
        ...(typeof hasMore === 'boolean' ? { hasMore } : {}),
      },
      ...(isJsonObject(result._meta) ? { _meta: result._meta } : {}),
    },
    notes,
  };
}

/** Parses each item of a list, keeping the usable ones in order. */
export function keep<T>(
  items: unknown[],
  key: string,
  notes: ParseNote[],
  parse: (item: unknown, path: string, notes: ParseNote[]) => T | undefined,
): T[] {
  const kept: T[] = [];
  items.forEach((item, index) => {
    const parsed = parse(item, `${key}[${index}]`, notes);
    if (parsed !== undefined) kept.push(parsed);
  });
  return kept;
}

function drop(notes: ParseNote[], path: string, why: string): undefined {
  notes.push({ path, message: `dropped: ${why}` });
  return undefined;
}
