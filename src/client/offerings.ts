/**
 * Resources, resource templates, prompts, completion and resource subscriptions for one
 * connection, in both eras. Loaded with `import()` on first use (McpClient's methods of the same
 * names), so connect, list and call do not pay for it.
 *
 * - Nothing is asked of a server that did not declare the capability: CapabilityMissingError.
 * - Listings follow cursors within bounds (pages, items), like the tool catalog.
 * - What comes back is parsed defensively (protocol/offerings-parse.ts): unusable items are dropped
 *   and reported once per answer through `onWarning` ('malformed-offering'); the call never crashes.
 * - Subscriptions: legacy sends `resources/subscribe`/`resources/unsubscribe`; 2026-07-28 replaced
 *   them with one `subscriptions/listen` stream whose filter names the URIs and the list changes
 *   wanted (basic/patterns/subscriptions). This module keeps that stream in step with what is
 *   wanted: a change of filter closes the stream and opens one with the new filter.
 */

import {
  CapabilityMissingError,
  type CompleteRequestParams,
  type CompleteResult,
  type GetPromptResult,
  InvalidResponseError,
  isJsonObject,
  type JsonObject,
  keep,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type Parsed,
  type ParseNote,
  pageItems,
  parseCompleteResult,
  parseCursor,
  parseGetPromptResult,
  parsePrompt,
  parseReadResult,
  parseResource,
  parseResourceTemplate,
  type ReadResourceResult,
  type RequestOptions,
} from '../protocol/index.js';
import type { McpClient } from './client.js';
import { DEFAULT_MAX_ITEMS, DEFAULT_MAX_PAGES } from './listing-bounds.js';
import type { OfferingEvent, OfferingEvents, OfferingsPort } from './offerings-port.js';

/** Parameters of a listing: one page from `cursor`, or (without one) every page within bounds. */
export interface ListParams {
  cursor?: string;
  /** At most this many pages when following cursors (default 200). */
  maxPages?: number;
  /** At most this many items (default 50,000). */
  maxItems?: number;
}

type Capability = 'resources' | 'prompts' | 'completions';

function requireCapability(port: OfferingsPort, capability: Capability, method: string): void {
  if (!isJsonObject(port.capabilities()[capability]))
    throw new CapabilityMissingError(port.serverId, capability, method);
}

function report(port: OfferingsPort, method: string, notes: ParseNote[]): void {
  if (notes.length === 0) return;
  const shown = notes
    .slice(0, 3)
    .map((note) => `${note.path}: ${note.message}`)
    .join('; ');
  port.warn({
    serverId: port.serverId,
    code: 'malformed-offering',
    message: `${port.serverId}: ${notes.length} problem${notes.length === 1 ? '' : 's'} in its ${method} answer (${shown}${notes.length > 3 ? '; …' : ''})`,
  });
}

/**
 * Lists one kind (resources, templates, prompts) page by page. With a cursor: that one page. Without:
 * every page until the server stops, a cursor repeats, or a bound is reached; then `nextCursor`
 * says where the listing stopped, so a caller may go on.
 */
async function listAll<T>(
  port: OfferingsPort,
  method: string,
  key: string,
  parse: (item: unknown, path: string, notes: ParseNote[]) => T | undefined,
  params: ListParams,
  options: RequestOptions,
): Promise<JsonObject & { items: T[]; nextCursor?: string }> {
  const maxPages = params.cursor !== undefined ? 1 : (params.maxPages ?? DEFAULT_MAX_PAGES);
  const maxItems = params.maxItems ?? DEFAULT_MAX_ITEMS;
  const items: T[] = [];
  const notes: ParseNote[] = [];
  const seen = new Set<string>();
  let cursor = params.cursor;
  let last: JsonObject = {};
  for (let page = 0; page < maxPages; page++) {
    last = await port.request(method, cursor === undefined ? {} : { cursor }, options);
    const pageList = pageItems(last, key);
    if (!pageList) throw new InvalidResponseError(port.serverId, method, `the answer has no "${key}" list`);
    const pageNotes: ParseNote[] = [];
    items.push(...keep(pageList, key, pageNotes, parse));
    notes.push(...pageNotes.map((note) => ({ ...note, path: `page ${page + 1}: ${note.path}` })));
    cursor = parseCursor(last, notes);
    if (cursor === undefined) break;
    if (seen.has(cursor)) {
      notes.push({ path: 'nextCursor', message: 'a cursor came back twice; the listing stops there' });
      cursor = undefined;
      break;
    }
    seen.add(cursor);
    if (items.length >= maxItems) break;
  }
  if (items.length > maxItems) items.length = maxItems;
  report(port, method, notes);
  const { resultType: _r, nextCursor: _n, [key]: _items, ...rest } = last;
  return { ...rest, items, ...(cursor !== undefined ? { nextCursor: cursor } : {}) };
}

export async function listResources(
  port: OfferingsPort,
  params: ListParams,
  options: RequestOptions,
): Promise<ListResourcesResult> {
  requireCapability(port, 'resources', 'resources/list');
  const { items, ...rest } = await listAll(
    port,
    'resources/list',
    'resources',
    parseResource,
    params,
    options,
  );
  return { ...rest, resources: items } as ListResourcesResult;
}

export async function listResourceTemplates(
  port: OfferingsPort,
  params: ListParams,
  options: RequestOptions,
): Promise<ListResourceTemplatesResult> {
  requireCapability(port, 'resources', 'resources/templates/list');
  const { items, ...rest } = await listAll(
    port,
    'resources/templates/list',
    'resourceTemplates',
    parseResourceTemplate,
    params,
    options,
  );
  return { ...rest, resourceTemplates: items } as ListResourceTemplatesResult;
}

export async function listPrompts(
  port: OfferingsPort,
  params: ListParams,
  options: RequestOptions,
): Promise<ListPromptsResult> {
  requireCapability(port, 'prompts', 'prompts/list');
  const { items, ...rest } = await listAll(port, 'prompts/list', 'prompts', parsePrompt, params, options);
  return { ...rest, prompts: items } as ListPromptsResult;
}

/** Parses an answer with `parse`; an answer without its list at all is an invalid response. */
function parsedOrThrow<T>(
  port: OfferingsPort,
  method: string,
  result: JsonObject,
  parse: (result: JsonObject) => Parsed<T> | undefined,
  missing: string,
): T {
  const parsed = parse(result);
  if (!parsed) throw new InvalidResponseError(port.serverId, method, missing);
  report(port, method, parsed.notes);
  return parsed.value;
}

export async function readResource(
  port: OfferingsPort,
  params: { uri: string; _meta?: JsonObject },
  options: RequestOptions,
): Promise<ReadResourceResult> {
  requireCapability(port, 'resources', 'resources/read');
  const result = await port.requestWithInput('resources/read', { ...params }, options);
  return parsedOrThrow(port, 'resources/read', result, parseReadResult, 'the answer has no "contents" list');
}

export async function getPrompt(
  port: OfferingsPort,
  params: { name: string; arguments?: Record<string, string>; _meta?: JsonObject },
  options: RequestOptions,
): Promise<GetPromptResult> {
  requireCapability(port, 'prompts', 'prompts/get');
  const result = await port.requestWithInput('prompts/get', { ...params }, options);
  return parsedOrThrow(
    port,
    'prompts/get',
    result,
    parseGetPromptResult,
    'the answer has no "messages" list',
  );
}

export async function complete(
  port: OfferingsPort,
  params: CompleteRequestParams,
  options: RequestOptions,
): Promise<CompleteResult> {
  requireCapability(port, 'completions', 'completion/complete');
  const result = await port.request('completion/complete', params as unknown as JsonObject, options);
  return parsedOrThrow(
    port,
    'completion/complete',
    result,
    parseCompleteResult,
    'the answer has no "completion.values" list',
  );
}

function requireSubscribe(port: OfferingsPort, method: string): void {
  const resources = port.capabilities().resources;
  if (!(isJsonObject(resources) && resources.subscribe === true))
    throw new CapabilityMissingError(port.serverId, 'resources.subscribe', method);
}

/**
 * Asks for `notifications/resources/updated` about `uri`. Legacy: `resources/subscribe`. 2026-07-28:
 * the URI joins the filter of the `subscriptions/listen` stream (re-opened with it).
 */
export async function subscribeResource(
  port: OfferingsPort,
  params: { uri: string },
  options: RequestOptions,
): Promise<JsonObject> {
  const modern = port.era() === 'modern';
  requireSubscribe(port, modern ? 'subscriptions/listen' : 'resources/subscribe');
  if (!modern) {
    await port.request('resources/subscribe', { uri: params.uri }, options);
    port.subscribed.add(params.uri);
    return {};
  }
  port.subscribed.add(params.uri);
  syncListen(port);
  return {};
}

/** Stops updates about `uri`: `resources/unsubscribe` (legacy) or a stream without it (2026-07-28). */
export async function unsubscribeResource(
  port: OfferingsPort,
  params: { uri: string },
  options: RequestOptions,
): Promise<JsonObject> {
  const modern = port.era() === 'modern';
  requireSubscribe(port, modern ? 'subscriptions/listen' : 'resources/unsubscribe');
  if (!modern) {
    await port.request('resources/unsubscribe', { uri: params.uri }, options);
    port.subscribed.delete(params.uri);
    return {};
  }
  port.subscribed.delete(params.uri);
  syncListen(port);
  return {};
}

/** The `subscriptions/listen` filter wanted now: list changes someone listens for, subscribed URIs. */
export function listenFilter(port: OfferingsPort): JsonObject {
  const capabilities = port.capabilities();
  const filter: JsonObject = {};
  if (port.listeners.resourceListChanged.size > 0 && capabilities.resources?.listChanged)
    filter.resourcesListChanged = true;
  if (port.listeners.promptListChanged.size > 0 && capabilities.prompts?.listChanged)
    filter.promptsListChanged = true;
  if (port.subscribed.size > 0 && capabilities.resources?.subscribe)
    filter.resourceSubscriptions = [...port.subscribed].sort();
  return filter;
}

/**
 * Keeps the 2026-07-28 offerings stream in step with what is wanted (legacy servers push on their
 * own stream: nothing to do). An unchanged filter keeps the stream; a changed one replaces it; an
 * empty one closes it. Tool list changes have their own stream (McpClient).
 */
export function syncListen(port: OfferingsPort): void {
  if (port.era() !== 'modern' || port.isClosed()) return;
  const filter = listenFilter(port);
  const key = JSON.stringify(filter);
  if (port.stream?.filter === key) return;
  port.stream?.controller.abort('the subscription filter changed');
  port.stream = undefined;
  if (key === '{}') return;
  const controller = new AbortController();
  const stream = { filter: key, controller };
  port.stream = stream;
  port
    .request(
      'subscriptions/listen',
      { notifications: filter },
      { timeoutMs: Number.POSITIVE_INFINITY, signal: controller.signal },
    )
    .then(
      () => {
        // A graceful end (the server closed it): the next change of interest opens a new one.
        if (port.stream === stream) port.stream = undefined;
      },
      (error: unknown) => {
        if (port.stream === stream) port.stream = undefined;
        if (controller.signal.aborted || port.isClosed()) return;
        port.warn({
          serverId: port.serverId,
          code: 'subscription',
          message: `${port.serverId}: the resource and prompt subscription ended (${(error as Error).message}); updates stop until you subscribe again`,
        });
      },
    );
}

/** Each connection's port, made on its first use of this module. */
const ports = new WeakMap<McpClient, OfferingsPort>();

/**
 * The port of one connection. This module is McpClient's friend: it reads the connection's private
 * parts by name (TypeScript allows that through an element access), so that the class carries only
 * one small stub per method on the eager path, and none of this.
 */
// biome-ignore-start lint/complexity/useLiteralKeys: element access is how TypeScript lets a friend read private members.
export function portOf(client: McpClient): OfferingsPort {
  let port = ports.get(client);
  if (port) return port;
  const session = () => client['session'];
  port = {
    serverId: client.serverId,
    era: () => session().era,
    capabilities: () => session().capabilities,
    isClosed: () => client['closed'],
    request: (method, params, options) => client.request(method, params, options),
    requestWithInput: (method, params, options) =>
      client['questions'].track(client['requestWithInput'](method, params, options)),
    warn: (warning) => client['options'].onWarning?.(warning),
    engine: client['engine'],
    handlers: false,
    listeners: { resourceListChanged: new Set(), promptListChanged: new Set(), resourceUpdated: new Set() },
    subscribed: new Set(),
  };
  ports.set(client, port);
  return port;
}
// biome-ignore-end lint/complexity/useLiteralKeys: element access is how TypeScript lets a friend read private members.

/**
 * Adds a listener (installing the notification handlers with the first one) and keeps the
 * 2026-07-28 stream in step; returns the way to remove it.
 */
export function listen<E extends OfferingEvent>(
  port: OfferingsPort,
  event: E,
  listener: OfferingEvents[E],
): () => void {
  if (!port.handlers) {
    port.handlers = true;
    const tell = (name: OfferingEvent, update?: { uri: string }) => {
      for (const each of port.listeners[name]) {
        try {
          (each as (update?: { uri: string }) => void)(update);
        } catch {
          // A listener's failure must not stop the others or the connection.
        }
      }
    };
    port.engine.setNotificationHandler('notifications/resources/list_changed', () =>
      tell('resourceListChanged'),
    );
    port.engine.setNotificationHandler('notifications/prompts/list_changed', () => tell('promptListChanged'));
    port.engine.setNotificationHandler('notifications/resources/updated', (params) => {
      if (typeof params.uri === 'string') tell('resourceUpdated', { uri: params.uri });
    });
  }
  const set = port.listeners[event] as Set<OfferingEvents[E]>;
  set.add(listener);
  syncListen(port);
  return () => {
    set.delete(listener);
    syncListen(port);
  };
}

const OPERATIONS = {
  listResources,
  listResourceTemplates,
  readResource,
  subscribeResource,
  unsubscribeResource,
  listPrompts,
  getPrompt,
  complete,
  listen,
} as const;

/** Runs the operation McpClient's method of that name stands for. */
export function run(client: McpClient, name: string, args: unknown[]): unknown {
  const port = portOf(client);
  const operation = OPERATIONS[name as keyof typeof OPERATIONS] as (...a: unknown[]) => unknown;
  return name === 'listen' ? operation(port, ...args) : operation(port, args[0] ?? {}, args[1] ?? {});
}
