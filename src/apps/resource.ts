/**
 * Fetching an app's UI resource with `resources/read` through the server that linked it, checking
 * what came back (a `ui://` URI, the MCP App MIME type, HTML as text or base64), and caching it by
 * server and URI for the page's lifetime, as the specification allows, so showing the same app
 * again costs no round trip.
 */

import { isJsonObject, type JsonObject, UI_MIME_TYPE } from '../protocol/index.js';
import { type CheckedCsp, checkCsp, requestedPermissions } from './csp.js';
import type { AppPermission } from './spec.js';
import { isUiResourceUri } from './tool-ui.js';

/** One UI resource as Toolgate will render it. */
export interface UiResource {
  serverId: string;
  uri: string;
  /** The HTML exactly as the server sent it (the policy is added when it is shown). */
  html: string;
  /** SHA-256 of the HTML (hex), to tell versions apart; undefined outside secure contexts. */
  sha256?: string;
  csp: CheckedCsp;
  /** Browser features the app asks for; granted only by the person. */
  permissions: AppPermission[];
  /** true: a border and background; false: none; undefined: the host decides. */
  prefersBorder?: boolean;
}

/** Reads a resource through a connected server (the controller's readResource). */
type ReadResource = (serverId: string, uri: string) => Promise<JsonObject>;

/** A UI resource that cannot be shown, with a sentence that says why. */
class UiResourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UiResourceError';
  }
}

const KEEP = 16;
const cache = new Map<string, Promise<UiResource>>();

/** The resource, from the cache or the server; a failed read is not cached. */
export function loadUiResource(read: ReadResource, serverId: string, uri: string): Promise<UiResource> {
  const key = `${serverId}\u0000${uri}`;
  const cached = cache.get(key);
  if (cached) {
    // Most recently used last, so the oldest is dropped first.
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const loading = fetchUiResource(read, serverId, uri);
  cache.set(key, loading);
  loading.catch(() => cache.delete(key));
  while (cache.size > KEEP) cache.delete(cache.keys().next().value as string);
  return loading;
}

/** Forgets cached resources of one server (or all), e.g. after it changed its app. */
export function forgetUiResources(serverId?: string): void {
  for (const key of [...cache.keys()])
    if (serverId === undefined || key.startsWith(`${serverId}\u0000`)) cache.delete(key);
}

async function fetchUiResource(read: ReadResource, serverId: string, uri: string): Promise<UiResource> {
  if (!isUiResourceUri(uri))
    throw new UiResourceError(`${uri} is not a ui:// resource, so Toolgate does not render it.`);
  const result = await read(serverId, uri);
  const contents = Array.isArray(result.contents) ? result.contents.filter(isJsonObject) : [];
  const content =
    contents.find((item) => item.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!content) throw new UiResourceError(`${serverId} returned no content for ${uri}.`);
  const mimeType =
    typeof content.mimeType === 'string' ? content.mimeType.replace(/\s+/g, '').toLowerCase() : '';
  if (mimeType !== UI_MIME_TYPE)
    throw new UiResourceError(
      `${serverId} sent ${uri} as ${JSON.stringify(content.mimeType ?? 'no type')}, not ${UI_MIME_TYPE}; Toolgate renders only MCP App HTML.`,
    );
  const html = htmlOf(content, serverId, uri);
  const meta = isJsonObject(content._meta) && isJsonObject(content._meta.ui) ? content._meta.ui : {};
  return {
    serverId,
    uri,
    html,
    ...(await digest(html)),
    csp: checkCsp(meta.csp),
    permissions: requestedPermissions(meta.permissions),
    ...(typeof meta.prefersBorder === 'boolean' ? { prefersBorder: meta.prefersBorder } : {}),
  };
}

function htmlOf(content: JsonObject, serverId: string, uri: string): string {
  if (typeof content.text === 'string') return content.text;
  if (typeof content.blob === 'string') {
    try {
      const bytes = Uint8Array.from(atob(content.blob), (char) => char.charCodeAt(0));
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // Say what the blob should have been instead of atob's or the decoder's message.
      throw new UiResourceError(`${serverId} sent ${uri} as a blob that is not base64-encoded UTF-8 HTML.`);
    }
  }
  throw new UiResourceError(`${serverId} sent ${uri} with neither text nor blob.`);
}

async function digest(html: string): Promise<{ sha256?: string }> {
  if (typeof crypto === 'undefined' || !crypto.subtle) return {};
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(html)));
  return { sha256: Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('') };
}
