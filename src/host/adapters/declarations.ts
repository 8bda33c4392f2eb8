/**
 * The part every `to*Tools` adapter shares: which tools to declare, under which model name, with
 * which description. Only the wire shape differs per API.
 */

import { isOfferedToModel } from '../../apps/index.js';
import { qualifyToolName } from '../../client/index.js';
import type { Tool } from '../../protocol/index.js';
import type { ToolNameMap } from './names.js';

/** A tool and the server (connection id) it came from. */
export interface ServerTool {
  serverId: string;
  tool: Tool;
}

interface Declarable {
  name: string;
  description?: string;
  tool: Tool;
}

/**
 * Each tool with its model name. A tool listed twice by one server is declared once (the first
 * listing, as the catalog routes calls): APIs reject two declarations with the same name.
 */
export function declarable(tools: readonly ServerTool[], names: ToolNameMap): Declarable[] {
  const seen = new Set<string>();
  const out: Declarable[] = [];
  for (const { serverId, tool } of tools) {
    // A tool whose visibility lacks "model" is for its MCP App only (SEP-1865): never declared to a model.
    if (!isOfferedToModel(tool)) continue;
    const name = names.nameFor(serverId, tool.name);
    // Declaring a tool the map cannot resolve would make its calls fail later, far from the cause.
    if (name === undefined)
      throw new Error(
        `Tool "${qualifyToolName(serverId, tool.name)}" has no ${names.rules.api} name: build the name map from the same tools`,
      );
    if (seen.has(name)) continue;
    seen.add(name);
    // The title is the best fallback a model can read when a server gives no description.
    const description = tool.description ?? tool.title;
    out.push({ name, ...(typeof description === 'string' && description ? { description } : {}), tool });
  }
  return out;
}
