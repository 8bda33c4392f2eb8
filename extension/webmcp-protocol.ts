/**
 * What crosses the "toolgate-webmcp" port between a turned-on site's content script (the relay,
 * webmcp-relay.ts) and the service worker: the tab's WebMCP tools, read from
 * `document.modelContext` in the content script's isolated world. The page cannot write to this
 * port (its window messages reach only the bridge's own port), so a reply here is the relay's.
 */

/** The runtime port name the relay opens once the page has WebMCP tools. */
export const WEBMCP_PORT = 'toolgate-webmcp';

/** A page tool as the relay describes it: plain data (getTools()' objects cannot cross a port). */
export interface RelayedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean; consequentialHint?: boolean; untrustedContentHint?: boolean };
  origin?: string;
}

/** Worker to relay: list the tools, or run one with this input. */
export type RelayRequest =
  | { id: number; op: 'list' }
  | { id: number; op: 'call'; name: string; input: unknown };

/** Relay to worker: an answer, or "the page's tools changed". */
export type RelayMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  | { event: 'toolchange' };
