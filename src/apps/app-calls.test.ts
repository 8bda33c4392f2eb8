/**
 * The rules an app's tools/call meets before the gate. The controller is a stand-in here (its gate
 * and log are tested on their own, and e2e/apps.spec.ts runs these paths against real servers).
 */
import { signal } from '@preact/signals';
import { describe, expect, it, vi } from 'vitest';
import type { Tool } from '../protocol/index.js';
import type { CallRequest, PanelController, ServerState } from '../session/index.js';
import { appCaller, callToolForApp } from './app-calls.js';

const APP = { serverId: 'weather', resourceUri: 'ui://weather/app.html' };

function server(id: string, tools: Tool[]): ServerState {
  return {
    id,
    label: `${id} server`,
    config: {},
    state: 'connected',
    trust: 'untrusted',
    tools,
    disabled: new Set(),
  };
}

const tool = (name: string, visibility?: string[]): Tool => ({
  name,
  inputSchema: { type: 'object' },
  ...(visibility ? { _meta: { ui: { visibility } } } : {}),
});

function controller() {
  const refusal = vi.fn(async () => undefined);
  const call = vi.fn(async ({ serverId, toolName }: CallRequest) => {
    if (toolName === 'list_files') throw new Error(`${serverId} has no tool named "list_files".`);
    return { result: { content: [{ type: 'text' as const, text: `${toolName} ran` }] } };
  });
  const fake = {
    servers: signal([
      server('weather', [tool('refresh', ['app']), tool('forecast'), tool('admin_reset', ['model'])]),
      server('files', [tool('list_files')]),
    ]),
    call,
    ready: Promise.resolve({ auditLog: { refusal } }),
  } as unknown as PanelController;
  return { fake, call, refusal };
}

describe('callToolForApp', () => {
  it("runs the app's own tools through the controller as the app", async () => {
    const { fake, call } = controller();
    const result = await callToolForApp(fake, APP, 'refresh', { days: 2 }, new AbortController().signal);
    expect(result.content).toEqual([{ type: 'text', text: 'refresh ran' }]);
    expect(call).toHaveBeenCalledWith({
      serverId: 'weather',
      toolName: 'refresh',
      arguments: { days: 2 },
      caller: appCaller(APP),
      signal: expect.any(AbortSignal),
    });
    expect(appCaller(APP)).toEqual({ kind: 'mcp-app', label: 'ui://weather/app.html', server: 'weather' });
    await callToolForApp(fake, APP, 'forecast', {}, new AbortController().signal);
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('refuses a tool whose visibility lacks "app", sends nothing, and records the refusal', async () => {
    const { fake, call, refusal } = controller();
    await expect(
      callToolForApp(fake, APP, 'admin_reset', { all: true }, new AbortController().signal),
    ).rejects.toThrow('admin_reset on weather is not available to apps');
    expect(call).not.toHaveBeenCalled();
    expect(refusal).toHaveBeenCalledWith(
      expect.objectContaining({
        serverId: 'weather',
        toolName: 'admin_reset',
        caller: { kind: 'mcp-app', label: 'ui://weather/app.html', server: 'weather' },
        proposedArguments: { all: true },
        outcome: 'denied',
      }),
    );
  });

  it("asks only the app's own server for another server's tool, and says whose it is", async () => {
    const { fake, call } = controller();
    await expect(callToolForApp(fake, APP, 'list_files', {}, new AbortController().signal)).rejects.toThrow(
      /list_files is a tool of another server \(files server\); an app may call only tools of its own server \(weather\)/,
    );
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]?.[0].serverId).toBe('weather');
  });
});
