/**
 * The MCP App host is each controller's own: its settings and its listeners. The page-wide
 * `configureMcpApps` / `onMcpAppEvent` (deprecated) remain defaults every controller reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAppHost, type McpAppEvent } from './app-host.js';
import { configureMcpApps, onMcpAppEvent } from './app-host-page.js';

const APP = { serverId: 'weather', resourceUri: 'ui://weather/app.html' };
const closed = (reason: string): McpAppEvent => ({ type: 'closed', app: APP, reason });

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
  configureMcpApps({});
});

describe('the app host of a controller', () => {
  it("tells only its own listeners: one panel's apps never reach another host's", () => {
    const first = createAppHost();
    const second = createAppHost();
    const heardByFirst: string[] = [];
    const heardBySecond: string[] = [];
    cleanup.push(first.onEvent((event) => heardByFirst.push(event.type)));
    cleanup.push(second.onEvent((event) => heardBySecond.push(event.type)));
    first.emit(closed('done'));
    expect(heardByFirst).toEqual(['closed']);
    expect(heardBySecond).toEqual([]);
    expect(first.listenerCount()).toBe(1);
    const stop = second.onEvent(() => undefined);
    expect(second.listenerCount()).toBe(2);
    stop();
    expect(second.listenerCount()).toBe(1);
  });

  it('keeps its own settings, over the deprecated page-wide ones', () => {
    configureMcpApps({ maxHeight: 300 });
    const own = createAppHost({
      maxHeight: 500,
      opaqueSandboxUrl: 'chrome-extension://abc/mcp-app-sandbox.html',
    });
    const plain = createAppHost();
    expect(own.options()).toEqual({
      maxHeight: 500,
      opaqueSandboxUrl: 'chrome-extension://abc/mcp-app-sandbox.html',
    });
    expect(plain.options()).toEqual({ maxHeight: 300 });
    plain.configure({ maxHeight: 640 });
    expect(plain.options().maxHeight).toBe(640);
    expect(own.options().maxHeight).toBe(500);
  });

  it('refuses a sandbox that is not an http(s) page, and an opaque page that is not ours to serve', () => {
    expect(() => createAppHost({ sandboxUrl: 'javascript:alert(1)' })).toThrow(/http\(s\) URL/);
    expect(() => createAppHost().configure({ opaqueSandboxUrl: 'data:text/html,hi' })).toThrow(
      /http\(s\) or chrome-extension URL/,
    );
    expect(() => configureMcpApps({ sandboxUrl: 'file:///tmp/sandbox.html' })).toThrow(/http\(s\) URL/);
  });

  it('still tells the page-wide listeners, and a throwing listener stops no other', () => {
    const host = createAppHost();
    const heard: string[] = [];
    cleanup.push(
      host.onEvent(() => {
        throw new Error('the host app failed');
      }),
    );
    cleanup.push(onMcpAppEvent((event) => heard.push(event.type)));
    expect(host.listenerCount()).toBe(2);
    host.emit(closed('done'));
    expect(heard).toEqual(['closed']);
  });
});
