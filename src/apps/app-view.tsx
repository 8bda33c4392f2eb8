/** The MCP App host view (placeholder while the host is built). */

import type { GateResult } from '../gate/pipeline.js';
import type { Tool } from '../protocol/types.js';
import type { PanelController } from '../ui/controller.js';

export interface AppViewProps {
  controller: PanelController;
  serverId: string;
  tool: Tool;
  resourceUri: string;
  result: GateResult;
}

export function AppView({ resourceUri }: AppViewProps) {
  return <p class="tg-muted">MCP App {resourceUri}</p>;
}
