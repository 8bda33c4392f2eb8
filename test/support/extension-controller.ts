/**
 * A real controller (gate, policy, schema validator, in-memory audit) over a scripted MCP server,
 * for the extension's unit tests. The server is a test double (ScriptedTransport) because the
 * round trips under test are the extension's ports, not HTTP; the e2e suite uses real servers.
 */

import { createPolicy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import type { Tool } from '../../src/protocol/types.js';
import { type Controller, createController } from '../../src/session/controller.js';
import { ScriptedTransport } from './scripted-transport.js';

export const ADD: Tool = {
  name: 'add',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};
export const WIPE: Tool = { name: 'wipe', inputSchema: { type: 'object' } };

export interface TestServer {
  controller: Controller;
  /** The tools/call requests the server received. */
  calls: { name: string; arguments: Record<string, unknown> }[];
  /** The JSON-RPC ids of the calls the client told the server to cancel (notifications/cancelled). */
  cancelled(): unknown[];
  /** Answers every held call (the server finishing, whether or not it was told to cancel). */
  release(): void;
}

/** A controller connected to server "calc" (tools add and wipe); calls may be held until released. */
export async function controllerWithServer(options: { holdCalls?: boolean } = {}): Promise<TestServer> {
  const calls: TestServer['calls'] = [];
  const held: (() => void)[] = [];
  const transport = new ScriptedTransport((request, peer) => {
    switch (request.method) {
      case 'server/discover':
        return peer.fail(request, -32601, 'Method not found');
      case 'initialize':
        return peer.reply(request, {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'calc', version: '1.0.0' },
        });
      case 'tools/list':
        return peer.reply(request, { tools: [ADD, WIPE] });
      case 'tools/call': {
        const params = request.params as { name: string; arguments: { a: number; b: number } };
        calls.push(params);
        const answer = () =>
          peer.reply(request, {
            content: [{ type: 'text', text: String(params.arguments.a + params.arguments.b) }],
          });
        if (options.holdCalls) held.push(answer);
        else answer();
        return;
      }
      default:
        return peer.reply(request, {});
    }
  });
  const controller = createController({
    audit: 'memory',
    policy: createPolicy({ store: memorySettingsStore() }),
    servers: [{ id: 'calc', transport }],
  });
  await controller.ready;
  for (let wait = 0; controller.servers.value[0]?.state !== 'connected'; wait++) {
    if (wait > 200) throw new Error(`calc did not connect: ${controller.servers.value[0]?.error}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return {
    controller,
    calls,
    cancelled: () =>
      transport
        .sentWith('notifications/cancelled')
        .map((message) => ('params' in message ? message.params?.requestId : undefined)),
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
  };
}

/** Waits until `check` passes (state crosses ports asynchronously). */
export async function until(check: () => boolean, what = 'the condition'): Promise<void> {
  for (let wait = 0; !check(); wait++) {
    if (wait > 400) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
