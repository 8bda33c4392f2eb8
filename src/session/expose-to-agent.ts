/**
 * A gate for the browser's agent: chosen tools of the controller's MCP servers, registered as the
 * page's WebMCP tools (`document.modelContext.registerTool`). WebMCP itself has no approval, no
 * record and no notion of who asked; here every call the agent makes goes through the controller's
 * gate as caller `{ kind: 'agent', label: <this page's origin> }`: its own remembered approvals
 * (never the person's), the approval dialog, the audit log. When the agent cancels (WebMCP aborts
 * the signal it hands `execute`, and fires `toolcancel`), the call is cancelled through the gate.
 */

import type { JsonObject } from '../protocol/index.js';
import { type ModelContextLike, pageModelContext, registerGatedTool } from '../transport/index.js';
import { agentCallThroughGate } from './agent-call.js';
import type { PanelController } from './controller-types.js';

export interface ExposedTool {
  serverId: string;
  toolName: string;
  /**
   * The name the agent sees. Default: the tool's own name. WebMCP refuses some names (spaces, "!")
   * and duplicates: registration then fails with the browser's reason.
   */
  name?: string;
}

export interface ExposeToAgentOptions {
  tools: readonly ExposedTool[];
  /** Default: `document.modelContext`. A test double in tests; nothing is polyfilled. */
  modelContext?: ModelContextLike;
  /** The origin the agent's calls are recorded under. Default: this page's. */
  origin?: string;
}

/**
 * Registers the chosen tools with the browser's agent; resolves to a function that unregisters
 * them. Rejects when the browser has no WebMCP, a tool is not (yet) listed by its server, or the
 * browser refuses a registration (then none of them stays registered).
 */
export async function exposeToAgent(
  controller: Pick<PanelController, 'servers' | 'call'>,
  options: ExposeToAgentOptions,
): Promise<() => void> {
  const context = options.modelContext ?? pageModelContext();
  if (!context) throw new Error('This browser has no WebMCP (document.modelContext): nothing to expose to.');
  const caller = { kind: 'agent' as const, label: options.origin ?? location.origin };
  const registrations = new AbortController();
  try {
    for (const exposed of options.tools) {
      const server = controller.servers.value.find((candidate) => candidate.id === exposed.serverId);
      const tool = server?.tools.find((candidate) => candidate.name === exposed.toolName);
      if (!server || !tool)
        throw new Error(`No tool "${exposed.toolName}" on a server "${exposed.serverId}" in the panel.`);
      const readOnly = server.trust === 'trusted' && tool.annotations?.readOnlyHint === true;
      await registerGatedTool(
        context,
        {
          name: exposed.name ?? tool.name,
          ...(tool.title ? { title: tool.title } : {}),
          description: tool.description ?? '',
          inputSchema: tool.inputSchema as JsonObject,
          // A server's claims count only when the person trusts it (as in the panel).
          annotations: { readOnlyHint: readOnly, consequentialHint: !readOnly },
          execute: agentCallThroughGate(
            controller,
            { serverId: exposed.serverId, toolName: exposed.toolName },
            caller,
          ),
        },
        registrations.signal,
      );
    }
  } catch (error) {
    registrations.abort();
    throw error;
  }
  return () => registrations.abort();
}
