/**
 * The page's own WebMCP tools as a server of the panel, "This page" at the page's origin: a
 * transport over `document.modelContext` (transport/webmcp-page.ts), so listing, the catalog's
 * poisoning checks, trust, policy, the approval dialog and the audit log are those of any server.
 * Loaded only where the browser has WebMCP, after the first paint.
 */

import { pageModelContext, WebMcpPageTransport } from '../transport/index.js';
import type { ServerConfig } from './types.js';

/** The id of the page's WebMCP tools: never a URL server's (those start with a scheme and //). */
export function pageToolsServerId(origin: string = location.origin): string {
  return `webmcp:${origin}`;
}

export function pageToolsServer(): ServerConfig {
  const context = pageModelContext();
  if (!context) throw new Error('This browser has no WebMCP (document.modelContext).');
  const origin = location.origin;
  return {
    id: pageToolsServerId(origin),
    label: 'This page',
    address: origin,
    transport: new WebMcpPageTransport(context, origin),
  };
}
