/**
 * The host side of the app protocol over a real MessagePort (Node's), with the test playing the
 * sandbox proxy and the View on the other port: the browser parts (proxy page, sandboxes, CSP) are
 * in e2e/apps.spec.ts against the real example apps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../protocol/index.js';
import { createAppHost, type McpAppEvent } from '../session/index.js';
import { MessagePortTransport } from '../transport/index.js';
import { type AppHooks, type AppLaunch, AppSession } from './app-session.js';
import { AppRateLimits } from './message-limit.js';

const open: MessagePort[] = [];
const unsubscribe: (() => void)[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
  for (const stop of unsubscribe.splice(0)) stop();
});

const LAUNCH: AppLaunch = {
  app: { serverId: 'weather', resourceUri: 'ui://weather/app.html' },
  html: '<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'none\'"><p>hi</p>',
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  permissions: [],
  sandbox: 'allow-scripts allow-forms',
  hostContext: { theme: 'dark', displayMode: 'inline' },
};

/** The proxy-and-View end of the channel: what the host sent, and a way to speak. */
function harness(hooks: Partial<AppHooks> = {}, limits?: AppRateLimits) {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const received: JsonObject[] = [];
  const waiters: { test: (m: JsonObject) => boolean; resolve: (m: JsonObject) => void }[] = [];
  port2.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as JsonObject;
    received.push(message);
    for (const waiter of [...waiters])
      if (waiter.test(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
  });
  port2.start();
  // The controller's app host, as the panel gives it: the test listens where a host app would.
  const appHost = createAppHost();
  const session = new AppSession(
    new MessagePortTransport(port1, { label: 'test proxy' }),
    LAUNCH,
    {
      callTool: async () => ({ content: [{ type: 'text', text: 'done' }] }),
      readResource: async () => ({ contents: [] }),
      confirmOpenLink: async () => false,
      onSize: () => undefined,
      events: appHost,
      ...hooks,
    },
    limits,
  );
  let nextId = 1;
  const view = {
    received,
    notify: (method: string, params: JsonObject = {}) =>
      port2.postMessage({ jsonrpc: '2.0', method, params }),
    next: (test: (m: JsonObject) => boolean) =>
      new Promise<JsonObject>((resolve) => {
        const seen = received.find(test);
        if (seen) resolve(seen);
        else waiters.push({ test, resolve });
      }),
    request: async (method: string, params: JsonObject = {}) => {
      const id = `v${nextId++}`;
      const answer = view.next((m) => m.id === id);
      port2.postMessage({ jsonrpc: '2.0', id, method, params });
      return answer;
    },
    answer: (id: unknown, result: JsonObject) => port2.postMessage({ jsonrpc: '2.0', id, result }),
    /** ui/initialize then initialized, as the View does. */
    initialize: async () => {
      const answer = await view.request('ui/initialize', {
        protocolVersion: '2026-01-26',
        appInfo: { name: 'test', version: '1' },
        appCapabilities: {},
      });
      view.notify('ui/notifications/initialized');
      return answer;
    },
  };
  return { session, view, appHost };
}

describe('AppSession', () => {
  it('gives the proxy the app once it is ready: HTML, sandbox, kept origins, granted permissions', async () => {
    const { session, view } = harness();
    await session.start();
    view.notify('ui/notifications/sandbox-proxy-ready');
    const ready = await view.next((m) => m.method === 'ui/notifications/sandbox-resource-ready');
    expect(ready.params).toEqual({
      html: LAUNCH.html,
      sandbox: 'allow-scripts allow-forms',
      csp: LAUNCH.csp,
      permissions: {},
    });
    view.notify('ui/notifications/sandbox-proxy-ready');
    await view.initialize();
    expect(received(view, 'ui/notifications/sandbox-resource-ready')).toBe(1);
  });

  it('answers ui/initialize with the host context and capabilities, and sends input then result only after initialized', async () => {
    const { session, view } = harness();
    await session.start();
    session.toolInput({ city: 'Oslo' });
    session.toolResult({ content: [{ type: 'text', text: 'rain' }] });
    const answer = await view.request('ui/initialize', {
      protocolVersion: '2026-01-26',
      appInfo: { name: 'test', version: '1' },
      appCapabilities: {},
    });
    const result = answer.result as JsonObject;
    expect(result.protocolVersion).toBe('2026-01-26');
    expect(result.hostContext).toEqual(LAUNCH.hostContext);
    expect(result.hostCapabilities).toMatchObject({ openLinks: {}, serverTools: {}, serverResources: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received(view, 'ui/notifications/tool-input')).toBe(0);
    view.notify('ui/notifications/initialized');
    const result2 = await view.next((m) => m.method === 'ui/notifications/tool-result');
    const order = view.received
      .map((m) => m.method)
      .filter((m) => typeof m === 'string' && m.includes('tool-'));
    expect(order).toEqual(['ui/notifications/tool-input', 'ui/notifications/tool-result']);
    expect(view.received.find((m) => m.method === 'ui/notifications/tool-input')?.params).toEqual({
      arguments: { city: 'Oslo' },
    });
    expect(result2.params).toEqual({ content: [{ type: 'text', text: 'rain' }] });
    // Complete input goes once; partial input after it is dropped.
    session.toolInput({ city: 'Bergen' });
    session.toolInputPartial({ city: 'B' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received(view, 'ui/notifications/tool-input')).toBe(1);
    expect(received(view, 'ui/notifications/tool-input-partial')).toBe(0);
  });

  it('refuses requests before ui/initialize, and a second ui/initialize', async () => {
    const callTool = vi.fn(async () => ({ content: [] }));
    const { session, view } = harness({ callTool });
    await session.start();
    const early = await view.request('tools/call', { name: 'refresh' });
    expect((early.error as JsonObject).message).toContain('before ui/initialize');
    expect(callTool).not.toHaveBeenCalled();
    await view.initialize();
    const again = await view.request('ui/initialize', {});
    expect((again.error as JsonObject).code).toBe(-32000);
  });

  it("routes the app's tools/call to the host and returns its result or its refusal", async () => {
    const callTool = vi.fn(async (name: string) => {
      if (name === 'forbidden') throw new Error('The person denied forbidden on weather: no');
      return { content: [{ type: 'text' as const, text: `ran ${name}` }] };
    });
    const { session, view, appHost } = harness({ callTool });
    const events: McpAppEvent[] = [];
    unsubscribe.push(appHost.onEvent((event) => events.push(event)));
    await session.start();
    await view.initialize();
    const ok = await view.request('tools/call', { name: 'refresh', arguments: { days: 3 } });
    expect(ok.result).toEqual({ content: [{ type: 'text', text: 'ran refresh' }] });
    expect(callTool.mock.calls[0]?.slice(0, 2)).toEqual(['refresh', { days: 3 }]);
    const refused = await view.request('tools/call', { name: 'forbidden' });
    expect(refused.error).toEqual({ code: -32000, message: 'The person denied forbidden on weather: no' });
    expect(events).toContainEqual({
      type: 'refused',
      app: LAUNCH.app,
      method: 'tools/call',
      reason: 'The person denied forbidden on weather: no',
    });
    const bad = await view.request('tools/call', { name: 'refresh', arguments: [1] });
    expect((bad.error as JsonObject).message).toContain('must be an object');
  });

  it("cancels the gate's call when the app cancels its request", async () => {
    let seen: AbortSignal | undefined;
    const callTool = vi.fn(
      (_name: string, _args: JsonObject, signal: AbortSignal) =>
        new Promise<never>((_resolve, reject) => {
          seen = signal;
          signal.addEventListener('abort', () => reject(new Error('cancelled')));
        }),
    );
    const { session, view } = harness({ callTool });
    await session.start();
    await view.initialize();
    const answer = view.request('tools/call', { name: 'slow' });
    await vi.waitFor(() => expect(seen).toBeDefined());
    view.notify('notifications/cancelled', { requestId: 'v2' });
    await vi.waitFor(() => expect(seen?.aborted).toBe(true));
    expect(((await answer).error as JsonObject).message).toBe('cancelled');
  });

  it('opens only http(s) links, and only when the person says so', async () => {
    const confirmOpenLink = vi.fn(async (url: URL) => url.hostname === 'ok.example');
    const { session, view } = harness({ confirmOpenLink });
    await session.start();
    await view.initialize();
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'not a url', 7]) {
      const answer = await view.request('ui/open-link', { url });
      expect((answer.error as JsonObject).message).toContain('Invalid URL');
    }
    expect(confirmOpenLink).not.toHaveBeenCalled();
    const denied = await view.request('ui/open-link', { url: 'https://no.example/' });
    expect((denied.error as JsonObject).message).toBe('Link opening denied by user');
    const opened = await view.request('ui/open-link', { url: 'https://ok.example/page' });
    expect(opened.result).toEqual({});
    expect(confirmOpenLink.mock.calls.map(([url]) => url.href)).toEqual([
      'https://no.example/',
      'https://ok.example/page',
    ]);
  });

  it('hands messages and model context to the host app as events, and refuses messages nobody takes', async () => {
    const { session, view, appHost } = harness();
    await session.start();
    await view.initialize();
    const unheard = await view.request('ui/message', { role: 'user', content: { type: 'text', text: 'hi' } });
    expect((unheard.error as JsonObject).message).toContain('Message sending denied');
    const events: McpAppEvent[] = [];
    unsubscribe.push(appHost.onEvent((event) => events.push(event)));
    const heard = await view.request('ui/message', { role: 'user', content: { type: 'text', text: 'hi' } });
    expect(heard.result).toEqual({});
    const context = await view.request('ui/update-model-context', { structuredContent: { city: 'Oslo' } });
    expect(context.result).toEqual({});
    view.notify('notifications/message', { level: 'warning', data: 'careful' });
    await vi.waitFor(() =>
      expect(events.map((event) => event.type)).toEqual(['message', 'model-context', 'log']),
    );
    expect(events[0]).toEqual({
      type: 'message',
      app: LAUNCH.app,
      caller: { kind: 'mcp-app', label: 'ui://weather/app.html', server: 'weather' },
      message: { role: 'user', content: { type: 'text', text: 'hi' } },
    });
    expect(events[1]).toMatchObject({
      type: 'model-context',
      caller: { kind: 'mcp-app', label: 'ui://weather/app.html', server: 'weather' },
    });
    // A host that offers no other mode answers with the one in force.
    const mode = await view.request('ui/request-display-mode', { mode: 'fullscreen' });
    expect(mode.result).toEqual({ mode: 'inline' });
  });

  it('cuts a burst of messages off at the limit: the app hears the limit, the host nothing more, until tokens come back', async () => {
    let now = 0;
    const limits = new AppRateLimits(
      { message: { burst: 3, refillMs: 10_000 }, 'model-context': { burst: 2, refillMs: 1_000 } },
      () => now,
    );
    const { session, view, appHost } = harness({}, limits);
    await session.start();
    await view.initialize();
    const events: McpAppEvent[] = [];
    unsubscribe.push(appHost.onEvent((event) => events.push(event)));
    const say = (text: string) =>
      view.request('ui/message', { role: 'user', content: [{ type: 'text', text }] });
    const answers = await Promise.all(['1', '2', '3', '4', '5', '6'].map(say));
    expect(answers.map((answer) => (answer.error ? 'refused' : 'passed'))).toEqual([
      'passed',
      'passed',
      'passed',
      'refused',
      'refused',
      'refused',
    ]);
    expect(answers[3]!.error).toMatchObject({ code: -32000 });
    expect((answers[3]!.error as JsonObject).message).toBe(
      'Too many messages: an app may send at most 3 at once, then one every 10 s. Nothing was passed to the host; try again in 10 s.',
    );
    const messages = () => events.filter((event) => event.type === 'message');
    expect(messages()).toHaveLength(3);
    // One notice of the burst for the host, not one per refused message.
    expect(events.filter((event) => event.type === 'refused')).toHaveLength(1);
    now += 10_000;
    expect((await say('7')).result).toEqual({});
    expect((await say('8')).error).toBeDefined();
    expect(messages()).toHaveLength(4);
    // Model context has its own bucket.
    const contexts = await Promise.all([1, 2, 3].map((n) => view.request('ui/update-model-context', { n })));
    expect(contexts.map((answer) => Boolean(answer.error))).toEqual([false, false, true]);
    expect((contexts[2]!.error as JsonObject).message).toContain('at most 2 at once, then one every 1 s');
  });

  it('asks the host for a display mode and answers with the mode in force; an unknown mode is refused', async () => {
    let current: 'inline' | 'fullscreen' = 'inline';
    const requestDisplayMode = vi.fn((wanted: string) => {
      if (wanted === 'inline' || wanted === 'fullscreen') current = wanted;
      return current;
    });
    const { session, view } = harness({ requestDisplayMode });
    await session.start();
    await view.initialize();
    expect((await view.request('ui/request-display-mode', { mode: 'fullscreen' })).result).toEqual({
      mode: 'fullscreen',
    });
    // pip is not offered: the mode in force stays.
    expect((await view.request('ui/request-display-mode', { mode: 'pip' })).result).toEqual({
      mode: 'fullscreen',
    });
    expect((await view.request('ui/request-display-mode', { mode: 'inline' })).result).toEqual({
      mode: 'inline',
    });
    const odd = await view.request('ui/request-display-mode', { mode: 'cinema' });
    expect((odd.error as JsonObject).message).toBe('Unknown display mode: "cinema".');
    expect(requestDisplayMode.mock.calls.map(([wanted]) => wanted)).toEqual(['fullscreen', 'pip', 'inline']);
    // The host tells the View of a change it makes itself.
    session.hostContextChanged({ displayMode: 'inline', containerDimensions: { maxHeight: 800 } });
    const changed = await view.next((m) => m.method === 'ui/notifications/host-context-changed');
    expect(changed.params).toEqual({ displayMode: 'inline', containerDimensions: { maxHeight: 800 } });
  });

  it('passes size reports on, and asks the View before it tears it down', async () => {
    const onSize = vi.fn();
    const onClosed = vi.fn();
    const { session, view } = harness({ onSize, onClosed });
    await session.start();
    await view.initialize();
    view.notify('ui/notifications/size-changed', { width: 300, height: 420 });
    view.notify('ui/notifications/size-changed', { width: -1, height: 'tall' });
    await vi.waitFor(() => expect(onSize).toHaveBeenCalledTimes(2));
    expect(onSize.mock.calls).toEqual([[{ width: 300, height: 420 }], [{}]]);
    const done = session.teardown('closed by the person');
    const request = await view.next((m) => m.method === 'ui/resource-teardown');
    expect(request.params).toEqual({ reason: 'closed by the person' });
    view.answer(request.id, {});
    await done;
    await view.next((m) => (m as { toolgate?: string }).toolgate === 'mcp-goodbye');
    // Nothing more goes to a View after teardown.
    session.toolResult({ content: [] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received(view, 'ui/notifications/tool-result')).toBe(0);
  });
});

function received(view: { received: JsonObject[] }, method: string): number {
  return view.received.filter((m) => m.method === method).length;
}
