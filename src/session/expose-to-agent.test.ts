/**
 * exposeToAgent in Node. The browser's WebMCP API exists only in a browser with WebMCP, so a test
 * double stands in for `document.modelContext` (it keeps what registerTool is given and runs
 * `execute` as the agent would); the controller is a stand-in that records each call request.
 * e2e/webmcp.spec.ts runs it against Chromium's real API with Playwright's page.webmcp as the agent.
 */
import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { DeniedError } from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import type { ModelContextLike } from '../transport/index.js';
import type { CallRequest } from './controller-types.js';
import { exposeToAgent } from './expose-to-agent.js';
import type { ServerState } from './types.js';

type Definition = Parameters<ModelContextLike['registerTool']>[0];

class FakeModelContext extends EventTarget implements ModelContextLike {
  readonly tools = new Map<string, Definition>();
  async registerTool(tool: Definition, options: { signal?: AbortSignal } = {}) {
    if (tool.name.includes(' ')) throw new DOMException('Invalid tool name', 'InvalidStateError');
    this.tools.set(tool.name, tool);
    options.signal?.addEventListener('abort', () => this.tools.delete(tool.name));
  }
  async getTools() {
    return [...this.tools.values()];
  }
  async executeTool(): Promise<string> {
    throw new Error('not used');
  }
}

const server = {
  id: 'sdk',
  label: 'sdk',
  config: {},
  state: 'connected',
  trust: 'untrusted',
  disabled: new Set(),
  tools: [
    { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' } },
    { name: 'other tool', description: 'Bad name for WebMCP', inputSchema: { type: 'object' } },
  ],
} as unknown as ServerState;

function controllerThat(answer: (request: CallRequest) => Promise<JsonObject>) {
  const requests: CallRequest[] = [];
  return {
    requests,
    servers: signal([server]),
    call: async (request: CallRequest) => {
      requests.push(request);
      return {
        invocationId: 'i',
        serverId: request.serverId,
        toolName: request.toolName,
        result: await answer(request),
        arguments: request.arguments,
      } as never;
    },
  };
}

describe('exposeToAgent', () => {
  it("registers the tool, and each call the agent makes goes to the gate as caller agent with the agent's signal", async () => {
    const context = new FakeModelContext();
    const controller = controllerThat(async () => ({ content: [{ type: 'text', text: 'Echo: hi' }] }));
    const unexpose = await exposeToAgent(controller, {
      tools: [{ serverId: 'sdk', toolName: 'echo' }],
      modelContext: context,
      origin: 'https://page.test',
    });
    const tool = context.tools.get('echo')!;
    expect(tool.description).toBe('Echoes');
    // An untrusted server's claims do not count: the agent is told the tool is consequential.
    expect(tool.annotations).toEqual({ readOnlyHint: false, consequentialHint: true });
    const cancel = new AbortController();
    expect(await tool.execute({ message: 'hi' }, { signal: cancel.signal })).toEqual({
      content: [{ type: 'text', text: 'Echo: hi' }],
    });
    expect(controller.requests[0]).toMatchObject({
      serverId: 'sdk',
      toolName: 'echo',
      arguments: { message: 'hi' },
      caller: { kind: 'agent', label: 'https://page.test' },
      signal: cancel.signal,
    });
    unexpose();
    expect(context.tools.size).toBe(0);
  });

  it('tells the agent a denial as a tool error', async () => {
    const context = new FakeModelContext();
    const controller = controllerThat(async () => {
      throw new DeniedError('sdk', 'echo', 'person', 'not now');
    });
    await exposeToAgent(controller, {
      tools: [{ serverId: 'sdk', toolName: 'echo' }],
      modelContext: context,
      origin: 'https://page.test',
    });
    const result = (await context.tools.get('echo')!.execute({})) as JsonObject;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/denied/i);
  });

  it('registers nothing when one of the tools is refused or unknown', async () => {
    const context = new FakeModelContext();
    const controller = controllerThat(async () => ({ content: [] }));
    await expect(
      exposeToAgent(controller, {
        tools: [
          { serverId: 'sdk', toolName: 'echo' },
          { serverId: 'sdk', toolName: 'other tool' },
        ],
        modelContext: context,
        origin: 'https://page.test',
      }),
    ).rejects.toThrow('Invalid tool name');
    await expect(
      exposeToAgent(controller, {
        tools: [{ serverId: 'sdk', toolName: 'nope' }],
        modelContext: context,
        origin: 'https://page.test',
      }),
    ).rejects.toThrow('No tool "nope"');
    expect(context.tools.size).toBe(0);
  });
});
