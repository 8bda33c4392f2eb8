/**
 * How a call from the browser's agent reaches a tool: through the gate as the agent (asked,
 * recorded, cancelled with the agent's signal), and back as the tool's result or, when the gate or
 * the tool refuses, as a tool error in words the agent can act on. One copy for the tools the host
 * exposes from its servers (expose-to-agent.ts) and its own page tools (register-page-tools.ts).
 */

import { type Caller, errorForModel } from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import type { PanelController } from './controller-types.js';

export function agentCallThroughGate(
  controller: Pick<PanelController, 'call'>,
  target: { serverId: string; toolName: string },
  caller: Caller,
): (input: JsonObject, client?: { signal?: AbortSignal }) => Promise<unknown> {
  return async (input, client) => {
    try {
      const outcome = await controller.call({
        ...target,
        arguments: input,
        caller,
        ...(client?.signal ? { signal: client.signal } : {}),
      });
      return outcome.result;
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: errorForModel(error).text }] };
    }
  };
}
