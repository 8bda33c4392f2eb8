/**
 * What crosses the "toolgate-webmcp" port between a turned-on site's content script (the relay,
 * webmcp-relay.ts) and the service worker: the tab's WebMCP tools, read from
 * `document.modelContext` in the content script's isolated world. The page cannot write to this
 * port (its window messages reach only the bridge's own port), so a reply here is the relay's.
 */

/** The runtime port name the relay opens on a turned-on site where the browser has WebMCP. */
export const WEBMCP_PORT = 'toolgate-webmcp';
/** What a starting worker sends open tabs of turned-on sites so their relay opens its port again. */
export const WEBMCP_RECONNECT = 'webmcp-reconnect';

/** A page tool as the relay describes it: plain data (getTools()' objects cannot cross a port). */
export interface RelayedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean; consequentialHint?: boolean; untrustedContentHint?: boolean };
  origin?: string;
}

/** A tool of the person's servers the site's browser agent may call (the site was granted it). */
export interface AgentTool {
  serverId: string;
  toolName: string;
  /** The name the agent sees (the tool's own; WebMCP refuses duplicates, so later ones are left out). */
  name: string;
  description: string;
  inputSchema: unknown;
}

/**
 * Worker to relay: accepted (`hello`; a port refused hears nothing), list the tools, run one with this input; the tools to register for the agent
 * (`expose`, the whole list each time, empty to withdraw them); the answer to an agent's call.
 */
export type RelayRequest =
  | { op: 'hello' }
  | { id: number; op: 'list' }
  | { id: number; op: 'call'; name: string; input: unknown }
  | { op: 'expose'; tools: AgentTool[] }
  | { op: 'agentReply'; callId: number; result: unknown };

/** Relay to worker: an answer, "the page's tools changed", or the agent calling an exposed tool. */
export type RelayMessage =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  | { event: 'toolchange' }
  | { event: 'agentCall'; callId: number; serverId: string; toolName: string; input: unknown }
  | { event: 'agentCancel'; callId: number };
