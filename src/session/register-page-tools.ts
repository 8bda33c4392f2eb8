/**
 * A host's own page tools, registered through Toolgate: each goes to the browser's agent through
 * `document.modelContext.registerTool`, and is listed on the panel's "This page" server. An agent's
 * call passes the gate first, as caller `{ kind: 'agent', label: <origin> }` (asked in the dialog,
 * recorded in the audit log, cancelled when the agent cancels); only then does the host's `execute`
 * run. WebMCP alone would run it at once, unasked and unrecorded.
 */

import type { JsonObject } from '../protocol/index.js';
import { type ModelContextLike, pageModelContext, registerHostTool } from '../transport/index.js';
import { agentCallThroughGate } from './agent-call.js';
import type { PanelController } from './controller-types.js';

/** A tool the host offers the browser's agent; `execute` runs only after the gate allowed the call. */
export interface PageTool {
  /** WebMCP refuses names with spaces or punctuation such as "!", and duplicates. */
  name: string;
  title?: string;
  description: string;
  inputSchema?: JsonObject;
  /** The host's claim; the panel shows it as one ("This page" starts untrusted, like any server). */
  annotations?: { readOnlyHint?: boolean };
  /** A CallToolResult (`{ content: [...] }`), or any value, which is returned as text. */
  execute(input: JsonObject): unknown;
}

export interface RegisterPageToolsOptions {
  tools: readonly PageTool[];
  /** Default: `document.modelContext`. A test double in tests; nothing is polyfilled. */
  modelContext?: ModelContextLike;
  /** The page's origin: the "This page" server's and the agent's label. Default: this page's. */
  origin?: string;
}

/**
 * Registers the host's tools; resolves to a function that unregisters them. Rejects when the browser
 * has no WebMCP, when the controller does not list the page's tools (`pageTools: false`), or when
 * the browser refuses a registration (then none of them stays registered).
 */
export async function registerPageTools(
  controller: Pick<PanelController, 'call' | 'pageTools'>,
  options: RegisterPageToolsOptions,
): Promise<() => void> {
  const context = options.modelContext ?? pageModelContext();
  if (!context)
    throw new Error('This browser has no WebMCP (document.modelContext): no agent to offer tools to.');
  if (!options.modelContext && controller.pageTools !== 'listed')
    throw new Error(
      'This controller does not list the page’s tools (pageTools: false): they could not be gated.',
    );
  const origin = options.origin ?? location.origin;
  const caller = { kind: 'agent' as const, label: origin };
  const registrations = new AbortController();
  try {
    for (const tool of options.tools) {
      const readOnly = tool.annotations?.readOnlyHint === true;
      await registerHostTool(
        context,
        {
          name: tool.name,
          ...(tool.title ? { title: tool.title } : {}),
          description: tool.description,
          inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
          annotations: { readOnlyHint: readOnly, consequentialHint: !readOnly },
          execute: async (input) => tool.execute(input),
        },
        agentCallThroughGate(controller, { serverId: `webmcp:${origin}`, toolName: tool.name }, caller),
        registrations.signal,
      );
    }
  } catch (error) {
    registrations.abort();
    throw error;
  }
  return () => registrations.abort();
}
