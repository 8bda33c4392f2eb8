/**
 * The page bridge's messages. A page speaks to the content script with window.postMessage on its
 * own window (tagged, checked by source and origin); the content script relays to the service
 * worker over a runtime port, which knows the page's origin from Chrome, not from the page.
 */

import type { JsonObject, Tool } from '../src/protocol/index.js';
import type { WireError } from './remote/wire.js';

/** The tag on window messages from the page API to the content script. */
export const PAGE_TAG = 'toolgate:page';
/** The tag on window messages from the content script back to the page API. */
export const BRIDGE_TAG = 'toolgate:bridge';
/** The runtime port name content scripts open to the service worker. */
export const PAGE_PORT = 'toolgate-page';

/** A tool as a granted site sees it. Annotations are the server's claims, never verified. */
export interface SiteTool {
  serverId: string;
  serverLabel: string;
  name: string;
  title?: string;
  description?: string;
  inputSchema: Tool['inputSchema'];
  annotations?: Tool['annotations'];
}

export type PageRequest =
  | { id: string; method: 'requestAccess' }
  | { id: string; method: 'listTools' }
  | { id: string; method: 'callTool'; serverId: string; toolName: string; arguments: JsonObject }
  | { id: string; method: 'cancel'; callId: string }
  | { id: string; method: 'readResource'; serverId: string; uri: string }
  | { id: string; method: 'getPrompt'; serverId: string; name: string; arguments: Record<string, string> };

export type BridgeReply =
  | { id: string; ok: true; value: unknown }
  | { id: string; ok: false; error: WireError };

/** Pushed to a page when its access changes (granted, narrowed, revoked). */
export interface AccessEvent {
  event: 'access';
  granted: boolean;
  tools: SiteTool[];
}

const MAX_ID = 100;
/** A resource URI a page may ask to read: long enough for any real one, short enough to show. */
const MAX_URI = 8192;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const shortString = (value: unknown, max = MAX_ID): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

/**
 * Checks a request from a page (anything may arrive). Returns the request, or a sentence saying
 * what is wrong with it, so the page hears why instead of waiting forever.
 */
export function parsePageRequest(value: unknown): PageRequest | { id?: string; invalid: string } {
  if (!isObject(value)) return { invalid: 'A Toolgate request must be an object.' };
  const id = shortString(value.id) ? value.id : undefined;
  if (!id) return { invalid: 'A Toolgate request needs an id (a string of at most 100 characters).' };
  switch (value.method) {
    case 'requestAccess':
    case 'listTools':
      return { id, method: value.method };
    case 'cancel':
      return shortString(value.callId)
        ? { id, method: 'cancel', callId: value.callId }
        : { id, invalid: 'cancel needs the callId of a call this page made.' };
    case 'callTool':
      if (!shortString(value.serverId, 500) || !shortString(value.toolName, 500))
        return { id, invalid: 'callTool needs a serverId and a toolName (strings).' };
      if (value.arguments !== undefined && !isObject(value.arguments))
        return { id, invalid: `The arguments of ${value.toolName} must be an object.` };
      return {
        id,
        method: 'callTool',
        serverId: value.serverId,
        toolName: value.toolName,
        arguments: (value.arguments ?? {}) as JsonObject,
      };
    case 'readResource':
      return shortString(value.serverId, 500) && shortString(value.uri, MAX_URI)
        ? { id, method: 'readResource', serverId: value.serverId, uri: value.uri }
        : { id, invalid: 'readResource needs a serverId and a uri (strings).' };
    case 'getPrompt': {
      if (!shortString(value.serverId, 500) || !shortString(value.name, 500))
        return { id, invalid: 'getPrompt needs a serverId and a prompt name (strings).' };
      const args = value.arguments ?? {};
      if (!isObject(args) || !Object.values(args).every((item) => typeof item === 'string'))
        return { id, invalid: `The arguments of the prompt ${value.name} must be an object of strings.` };
      return {
        id,
        method: 'getPrompt',
        serverId: value.serverId,
        name: value.name,
        arguments: args as Record<string, string>,
      };
    }
    default:
      return {
        id,
        invalid: `Toolgate has no method ${JSON.stringify(String(value.method)).slice(0, 60)}; use requestAccess, listTools, callTool, readResource, getPrompt or cancel.`,
      };
  }
}
