/**
 * The session's open apps against a real controller (gate, policy, in-memory audit) connected over a
 * MessageChannel to a real SDK 1.x server: the demo's counter app and a slow app tool whose answer
 * the test releases, with progress. No browser here: what is checked is when apps open, what they
 * are told, and how they close; the frames are e2e/apps.spec.ts's.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport as SdkTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerDemoApp, registerDemoTools } from '../demo/index.js';
import { createPolicy, memorySettingsStore } from '../gate/index.js';
import { type Controller, createController } from '../session/index.js';
import { MessagePortTransport } from '../transport/index.js';
import { MAX_OPEN_APPS, type OpenApps, openAppsOf } from './open-apps.js';

const SLOW_APP = 'ui://test/slow.html';

interface Setup {
  controller: Controller;
  apps: OpenApps;
  release: () => void;
  /** Lets the slow tool's pending calls answer. */
  finishSlow: () => void;
  /** Answers the next approval(s) as the person would. */
  answer: (action: 'allow' | 'deny') => void;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: { store?: boolean } = {}): Promise<Setup> {
  const { port1, port2 } = new MessageChannel();
  const server = new McpServer({ name: 'apps-test', version: '1.0.0' });
  registerDemoTools(server);
  registerDemoApp(server);
  let waiting: (() => void)[] = [];
  server.registerResource('slow-app', SLOW_APP, { mimeType: 'text/html;profile=mcp-app' }, async () => ({
    contents: [{ uri: SLOW_APP, mimeType: 'text/html;profile=mcp-app', text: '<!doctype html><p>slow' }],
  }));
  server.registerTool(
    'slow',
    {
      description: 'Answers when the test says so, reporting progress meanwhile.',
      inputSchema: { label: z.string() },
      _meta: { ui: { resourceUri: SLOW_APP } },
    },
    async ({ label }, extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2, message: 'half way' },
        });
      await new Promise<void>((resolve, reject) => {
        waiting.push(resolve);
        extra.signal.addEventListener('abort', () => reject(new Error('cancelled')));
      });
      return { content: [{ type: 'text', text: `slow ${label} done` }] };
    },
  );
  await server.connect(new MessagePortTransport(port2, { label: 'test server' }) as unknown as SdkTransport);
  const controller = createController({
    servers: [{ id: 'demo', transport: new MessagePortTransport(port1, { label: 'demo' }) }],
    audit: 'memory',
    policy: createPolicy({ store: memorySettingsStore() }),
  });
  cleanups.push(async () => {
    await controller.close();
    await server.close();
    port1.close();
    port2.close();
  });
  await until(() => controller.servers.value[0]?.state === 'connected');
  // Without a store (yet), nothing watches the session's calls.
  const apps = options.store === false ? undefined : openAppsOf(controller);
  const lease = apps?.retain();
  if (lease) cleanups.push(() => lease.release());
  return {
    controller,
    apps: apps as OpenApps,
    release: () => lease?.release(),
    finishSlow: () => {
      for (const resolve of waiting) resolve();
      waiting = [];
    },
    answer: (action) => {
      for (const pending of controller.approvals.value)
        pending.answer(
          action === 'allow'
            ? { action: 'allow', remember: 'once' }
            : { action: 'deny', reason: 'not now', decidedBy: 'person' },
        );
    },
  };
}

async function until(condition: () => boolean, what = 'the condition'): Promise<void> {
  for (let tries = 0; tries < 400; tries++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('open apps', () => {
  it('opens an app when its call is sent (after approval), follows its progress, then hands it the result', async () => {
    const { controller, apps, answer, finishSlow } = await setup();
    const call = controller.call({ serverId: 'demo', toolName: 'slow', arguments: { label: 'first' } });
    await until(() => controller.approvals.value.length === 1, 'the approval');
    // Waiting for the person: nothing is open yet.
    expect(apps.apps.value).toEqual([]);
    answer('allow');
    await until(() => apps.apps.value.length === 1, 'the app');
    const [app] = apps.apps.value;
    expect(app).toMatchObject({ serverId: 'demo', resourceUri: SLOW_APP, caller: { kind: 'person' } });
    expect(app?.tool.name).toBe('slow');
    await until(() => app?.call.value.phase === 'running' && app.call.value.progress !== undefined);
    expect(app?.call.value).toEqual({
      phase: 'running',
      arguments: { label: 'first' },
      progress: { progress: 1, total: 2, message: 'half way' },
    });
    finishSlow();
    await call;
    expect(app?.call.value).toMatchObject({
      phase: 'done',
      arguments: { label: 'first' },
      result: { content: [{ type: 'text', text: 'slow first done' }] },
    });
    // The app stays open once its call is over.
    expect(apps.apps.value).toEqual([app]);
    expect(apps.appOf(app!.invocationId)).toBe(app);
  });

  it('tells the app its call was cancelled; a denied call and a plain tool open nothing', async () => {
    const { controller, apps, answer } = await setup();
    const call = controller
      .call({ serverId: 'demo', toolName: 'slow', arguments: { label: 'cancelled' } })
      .catch((error: Error) => error);
    await until(() => controller.approvals.value.length === 1);
    answer('allow');
    await until(() => apps.apps.value.length === 1);
    controller.cancel(apps.apps.value[0]!.invocationId);
    expect(await call).toBeInstanceOf(Error);
    const state = apps.apps.value[0]!.call.value;
    expect(state.phase).toBe('cancelled');
    expect(state.phase === 'cancelled' && state.reason).toMatch(/cancel/i);

    const denied = controller
      .call({ serverId: 'demo', toolName: 'counter', arguments: { start: 3 } })
      .catch((error: Error) => error);
    await until(() => controller.approvals.value.length === 1);
    answer('deny');
    await denied;
    const plain = controller.call({ serverId: 'demo', toolName: 'add', arguments: { a: 1, b: 2 } });
    await until(() => controller.approvals.value.length === 1);
    answer('allow');
    await plain;
    expect(apps.apps.value.map((app) => app.tool.name)).toEqual(['slow']);
  });

  it("an app's own calls open no app; closing tears down through the view, and a closed app stays closed until shown again", async () => {
    const { controller, apps, answer } = await setup();
    const fromApp = controller.call({
      serverId: 'demo',
      toolName: 'counter',
      arguments: { start: 1 },
      caller: { kind: 'mcp-app', label: 'ui://x' },
    });
    await until(() => controller.approvals.value.length === 1);
    answer('allow');
    await fromApp;
    expect(apps.apps.value).toEqual([]);

    const call = controller.call({ serverId: 'demo', toolName: 'counter', arguments: { start: 7 } });
    await until(() => controller.approvals.value.length === 1);
    answer('allow');
    const result = await call;
    const app = apps.appOf(result.invocationId);
    expect(app?.call.value).toMatchObject({ phase: 'done', result: { structuredContent: { count: 7 } } });
    const reasons: string[] = [];
    apps.onTeardown(app!.id, async (reason) => {
      reasons.push(reason);
    });
    await apps.close(app!.id, 'closed by the person');
    expect(reasons).toEqual(['closed by the person']);
    expect(apps.apps.value).toEqual([]);
    // Activity's "Show app" opens it again, with the call's result.
    const again = apps.show(result.invocationId);
    expect(again?.id).not.toBe(app?.id);
    expect(again?.call.value).toMatchObject({ phase: 'done', result: { structuredContent: { count: 7 } } });
    expect(apps.apps.value).toEqual([again]);
  });

  it(`keeps at most ${MAX_OPEN_APPS} apps, closing the oldest; the last view to go closes them all`, async () => {
    const { controller, apps, answer, release } = await setup();
    const ids: string[] = [];
    for (let start = 0; start <= MAX_OPEN_APPS; start++) {
      const call = controller.call({ serverId: 'demo', toolName: 'counter', arguments: { start } });
      await until(() => controller.approvals.value.length === 1);
      answer('allow');
      ids.push((await call).invocationId);
    }
    await until(() => apps.apps.value.length === MAX_OPEN_APPS);
    expect(apps.apps.value.map((app) => app.invocationId)).toEqual(ids.slice(1));
    const reasons: string[] = [];
    for (const app of apps.apps.value)
      apps.onTeardown(app.id, async (reason) => {
        reasons.push(reason);
      });
    release();
    await until(() => apps.apps.value.length === 0);
    expect(reasons).toEqual(Array(MAX_OPEN_APPS).fill('the Toolgate panel was closed'));
    // A new view starts a new store for the session.
    expect(openAppsOf(controller)).not.toBe(apps);
  });

  it('calls that ended before the store existed do not open apps; a removed server takes its apps', async () => {
    const { controller, answer } = await setup({ store: false });
    const before = controller.call({ serverId: 'demo', toolName: 'counter', arguments: { start: 1 } });
    await until(() => controller.approvals.value.length === 1);
    answer('allow');
    const earlier = await before;
    const apps = openAppsOf(controller);
    const lease = apps.retain();
    cleanups.push(() => lease.release());
    expect(apps.apps.value).toEqual([]);
    expect(apps.show(earlier.invocationId)?.invocationId).toBe(earlier.invocationId);
    await controller.removeServer('demo');
    await until(() => apps.apps.value.length === 0, 'the apps of the removed server to close');
  });
});
