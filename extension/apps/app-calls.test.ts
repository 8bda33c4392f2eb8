/**
 * MCP Apps over the extension's port: the side panel reads an app's UI resource through the worker,
 * and an app's tools/call runs in the worker's gate under the app's name, refused there for tools
 * without "app" visibility and for names that are not ui:// resources, cancelled when the app
 * cancels it or the page goes. The server is a test double (ScriptedTransport) and so are the ports
 * (chrome.runtime exists only in a loaded extension); e2e/extension-apps.spec.ts runs the real ones.
 */

import { describe, expect, it } from 'vitest';
import { callToolForApp } from '../../src/apps/index.js';
import { createPolicy, MemoryAuditSink, memorySettingsStore } from '../../src/gate/index.js';
import type { Tool } from '../../src/protocol/index.js';
import { createController } from '../../src/session/index.js';
import { until } from '../../test/support/extension-controller.js';
import { portPair } from '../../test/support/runtime-ports.js';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import { servePanel } from '../remote/controller-host.js';
import { createRemoteController } from '../remote/remote-controller.js';
import { createSiteAccess } from '../site-access.js';

const APP = 'ui://clock/app.html';
const TICK: Tool = { name: 'tick', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: APP } } };
const MODEL_ONLY: Tool = {
  name: 'secret',
  inputSchema: { type: 'object' },
  _meta: { ui: { visibility: ['model'] } },
};

/** Caller label and outcome of each recorded call of `toolName`, sorted. */
function records(audit: MemoryAuditSink, toolName: string) {
  return audit.entries
    .map((entry) => {
      const record = entry.refusal ?? entry.pending;
      const outcome = entry.refusal?.outcome ?? entry.final?.outcome;
      return record?.toolName === toolName ? [record.caller.label, outcome] : undefined;
    })
    .filter((row) => row !== undefined)
    .sort();
}

/** A second server, whose tool no app of "clock" may reach. */
function otherServer(calls: string[]) {
  return new ScriptedTransport((request, peer) => {
    if (request.method === 'server/discover') return peer.fail(request, -32601, 'Method not found');
    if (request.method === 'initialize')
      return peer.reply(request, {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'other', version: '1.0.0' },
      });
    if (request.method === 'tools/list')
      return peer.reply(request, { tools: [{ name: 'wipe_all', inputSchema: { type: 'object' } }] });
    if (request.method === 'tools/call') calls.push(`other:${(request.params as { name: string }).name}`);
    return peer.reply(request, {});
  });
}

async function setup() {
  const calls: string[] = [];
  const reads: unknown[] = [];
  const held: (() => void)[] = [];
  const transport = new ScriptedTransport((request, peer) => {
    switch (request.method) {
      case 'server/discover':
        return peer.fail(request, -32601, 'Method not found');
      case 'initialize':
        return peer.reply(request, {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, resources: {} },
          serverInfo: { name: 'clock', version: '1.0.0' },
        });
      case 'tools/list':
        return peer.reply(request, { tools: [TICK, MODEL_ONLY] });
      case 'resources/read':
        reads.push(request.params?.uri);
        return peer.reply(request, {
          contents: [{ uri: APP, mimeType: 'text/html;profile=mcp-app', text: '<p>clock</p>' }],
        });
      case 'tools/call': {
        calls.push((request.params as { name: string }).name);
        held.push(() => peer.reply(request, { content: [{ type: 'text', text: 'tock' }] }));
        return;
      }
      default:
        return peer.reply(request, {});
    }
  });
  const audit = new MemoryAuditSink();
  const controller = createController({
    audit,
    policy: createPolicy({ store: memorySettingsStore() }),
    servers: [
      { id: 'clock', transport },
      { id: 'other', label: 'Other server', transport: otherServer(calls) },
    ],
  });
  await controller.ready;
  const siteAccess = await createSiteAccess({ load: async () => [], save: async () => undefined });
  const ports: ReturnType<typeof portPair>[] = [];
  const remote = createRemoteController({
    connect: () => {
      const pair = portPair('toolgate-panel');
      ports.push(pair);
      servePanel({ port: pair[0], controller, siteAccess });
      return pair[1];
    },
    openAuditLog: () => Promise.reject(new Error('no IndexedDB in this test')),
    reconnectDelayMs: 1,
  });
  await until(
    () => remote.servers.value.filter((server) => server.state === 'connected').length === 2,
    'the mirrored servers',
  );
  const release = () => {
    for (const answer of held.splice(0)) answer();
  };
  return { controller, audit, remote, ports, calls, reads, release, transport };
}

describe('MCP Apps in an extension page', () => {
  it("reads the app's UI resource through the worker's connection", async () => {
    const { remote, reads } = await setup();
    const read = await remote.readResource!('clock', APP);
    expect(read.contents).toMatchObject([{ uri: APP, text: '<p>clock</p>' }]);
    expect(reads).toEqual([APP]);
  });

  it("runs an app's call in the worker's gate under the app's name, asked in the page", async () => {
    const { remote, calls, release, audit } = await setup();
    const app = { serverId: 'clock', resourceUri: APP };
    const call = callToolForApp(remote, app, 'tick', {}, new AbortController().signal);
    await until(() => remote.approvals.value.length === 1, 'the approval');
    // The caller was made in the worker, from the app's resource URI.
    expect(remote.approvals.value[0]!.request.caller).toEqual({
      kind: 'mcp-app',
      label: APP,
      server: 'clock',
    });
    remote.approvals.value[0]!.answer({ action: 'deny', reason: 'not now' });
    await expect(call).rejects.toThrow(/not now/);
    expect(calls).toEqual([]);

    const allowed = callToolForApp(remote, app, 'tick', {}, new AbortController().signal);
    await until(() => remote.approvals.value.length === 1, 'the second approval');
    remote.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    await until(() => calls.length === 1, 'the call to be sent');
    release();
    expect((await allowed).content).toEqual([{ type: 'text', text: 'tock' }]);
    expect(records(audit, 'tick')).toEqual([
      [APP, 'denied'],
      [APP, 'success'],
    ]);
  });

  it('refuses, in the worker and on record, tools not for apps, callers that are not ui:// resources and tools of other servers', async () => {
    const { remote, calls, audit, controller } = await setup();
    // Straight at the worker, as a page that skipped its own check would: still refused there.
    await expect(
      remote.call({
        serverId: 'clock',
        toolName: 'secret',
        arguments: {},
        caller: { kind: 'mcp-app', label: APP },
      }),
    ).rejects.toThrow(/not available to apps/);
    expect(records(audit, 'secret')).toEqual([[APP, 'denied']]);
    await expect(
      remote.call({
        serverId: 'clock',
        toolName: 'tick',
        arguments: {},
        caller: { kind: 'mcp-app', label: 'https://evil.example/' },
      }),
    ).rejects.toThrow(/ui:\/\/ resource/);
    // Another server's tool: asked of the app's own server, refused by the worker's gate, on record.
    await expect(
      callToolForApp(
        remote,
        { serverId: 'clock', resourceUri: APP },
        'wipe_all',
        {},
        new AbortController().signal,
      ),
    ).rejects.toThrow(/wipe_all is a tool of another server \(Other server\)/);
    expect(records(audit, 'wipe_all')).toEqual([[APP, 'denied']]);
    expect(controller.approvals.value).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("the app's cancellation, and the page going away, cancel its call in the worker", async () => {
    const { remote, calls, ports, transport, controller } = await setup();
    const abort = new AbortController();
    const call = remote.call({
      serverId: 'clock',
      toolName: 'tick',
      arguments: {},
      caller: { kind: 'mcp-app', label: APP },
      signal: abort.signal,
    });
    await until(() => remote.approvals.value.length === 1, 'the approval');
    remote.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    await until(() => calls.length === 1, 'the call to be sent');
    abort.abort();
    await expect(call).rejects.toMatchObject({ kind: expect.stringMatching(/cancel|abort/i) });
    await until(() => transport.sentWith('notifications/cancelled').length === 1, 'the server to be told');

    void remote
      .call({ serverId: 'clock', toolName: 'tick', arguments: {}, caller: { kind: 'mcp-app', label: APP } })
      .catch(() => undefined);
    await until(() => remote.approvals.value.length === 1, 'the next approval');
    remote.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    await until(() => calls.length === 2, 'the next call to be sent');
    ports[0]![1].disconnect();
    await until(() => transport.sentWith('notifications/cancelled').length === 2, 'the page-gone cancel');
    await until(() => controller.running.value.length === 0, 'nothing running');
    remote.close();
  });
});
