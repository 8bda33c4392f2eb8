import { effect } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { controllerWithServer, until } from '../../test/support/extension-controller.js';
import { portPair } from '../../test/support/runtime-ports.js';
import { createSiteAccess } from '../site-access.js';
import { servePanel } from './controller-host.js';
import { createRemoteController } from './remote-controller.js';

async function setup(options: { holdCalls?: boolean } = {}) {
  const server = await controllerWithServer(options);
  const siteAccess = await createSiteAccess({ load: async () => [], save: async () => undefined });
  const connections: ReturnType<typeof portPair>[] = [];
  const remote = createRemoteController({
    connect: () => {
      const pair = portPair('toolgate-panel');
      connections.push(pair);
      servePanel({ port: pair[0], controller: server.controller, siteAccess });
      return pair[1];
    },
    openAuditLog: () => Promise.reject(new Error('no IndexedDB in this test')),
    reconnectDelayMs: 1,
  });
  await until(() => remote.servers.value[0]?.state === 'connected', 'the mirrored server');
  return { ...server, siteAccess, remote, connections };
}

describe('remote controller (an extension page mirroring the worker)', () => {
  it('mirrors servers and tools, and runs a call through the worker gate with the approval answered remotely', async () => {
    const { remote, calls } = await setup();
    expect(remote.servers.value[0]).toMatchObject({ id: 'calc', label: 'calc' });
    expect(remote.servers.value[0]!.tools.map((tool) => tool.name)).toEqual(['add', 'wipe']);
    expect(remote.servers.value[0]!.disabled).toBeInstanceOf(Set);

    const call = remote.call({ serverId: 'calc', toolName: 'add', arguments: { a: 2, b: 40 } });
    await until(() => remote.approvals.value.length === 1, 'the approval');
    const pending = remote.approvals.value[0]!;
    expect(pending.request.caller).toEqual({ kind: 'person', label: 'you' });
    // The edit check runs in the worker, with the worker's validator.
    expect((await pending.request.validate({ a: 'two', b: 40 })).status).toBe('invalid');
    expect((await pending.request.validate({ a: 1, b: 40 })).status).toBe('valid');
    pending.answer({ action: 'allow', remember: 'once', arguments: { a: 1, b: 40 } });
    const result = await call;
    expect(result.result.content).toEqual([{ type: 'text', text: '41' }]);
    expect(calls).toMatchObject([{ name: 'add', arguments: { a: 1, b: 40 } }]);
    await until(() => remote.finished.value.length === 1, 'the finished call');
    await until(() => remote.approvals.value.length === 0, 'the approval to leave');
    expect(pending.request.signal.aborted).toBe(true);
  });

  it('the person’s own call from a tool’s form runs in the worker without a dialog, approved by that click', async () => {
    const { remote, controller, calls } = await setup();
    const asked: string[] = [];
    const stop = effect(() => {
      for (const item of controller.approvals.value) asked.push(item.request.pinned.tool.name);
    });
    const result = await remote.call({
      serverId: 'calc',
      toolName: 'add',
      arguments: { a: 2, b: 3 },
      startedFrom: 'form',
    });
    stop();
    expect(asked).toEqual([]);
    expect(result.result.content).toEqual([{ type: 'text', text: '5' }]);
    expect(result.decision.source).toEqual({ kind: 'default', reason: 'person-started' });
    expect(calls).toMatchObject([{ name: 'add', arguments: { a: 2, b: 3 } }]);
    // Without the form's mark (a call made in code), the person is asked as before.
    const other = remote.call({ serverId: 'calc', toolName: 'add', arguments: { a: 1, b: 1 } });
    await until(() => remote.approvals.value.length === 1, 'the approval');
    expect(remote.approvals.value[0]!.request.ownCall).toBeUndefined();
    remote.approvals.value[0]!.answer({ action: 'deny' });
    await expect(other).rejects.toMatchObject({ kind: 'denied' });
  });

  it('the worker takes nothing but the exact mark { startedFrom: "form" } from the panel’s port', async () => {
    const { controller, calls } = await setup();
    const siteAccess = await createSiteAccess({ load: async () => [], save: async () => undefined });
    const [workerEnd, pageEnd] = portPair('toolgate-panel');
    servePanel({ port: workerEnd, controller, siteAccess });
    const replies = new Map<number, { ok: boolean }>();
    pageEnd.onMessage.addListener((message) => {
      const data = message as { type: string; id: number; ok: boolean };
      if (data.type === 'reply') replies.set(data.id, data);
    });
    const marks: unknown[] = ['form', { startedFrom: 'Form' }, { startedFrom: ['form'] }, null];
    for (const [index, mark] of marks.entries()) {
      const id = index + 1;
      pageEnd.postMessage({
        type: 'command',
        id,
        method: 'call',
        params: ['calc', 'add', { a: id, b: 0 }, mark],
      });
      await until(() => controller.approvals.value.length === 1, `the approval for ${JSON.stringify(mark)}`);
      expect(controller.approvals.value[0]!.request.caller).toEqual({ kind: 'person', label: 'you' });
      expect(controller.approvals.value[0]!.request.ownCall).toBeUndefined();
      controller.approvals.value[0]!.answer({ action: 'deny' });
      await until(() => replies.has(id), `the reply to ${id}`);
      expect(replies.get(id)).toMatchObject({ ok: false });
    }
    expect(calls).toEqual([]);
  });

  it('a denial comes back as the gate’s error; switching a tool off goes through the worker policy', async () => {
    const { remote, calls } = await setup();
    const call = remote.call({ serverId: 'calc', toolName: 'add', arguments: { a: 1, b: 1 } });
    await until(() => remote.approvals.value.length === 1, 'the approval');
    remote.approvals.value[0]!.answer({ action: 'deny', reason: 'not now' });
    await expect(call).rejects.toMatchObject({ kind: 'denied', message: expect.stringContaining('not now') });
    await remote.setToolEnabled('calc', 'wipe', false);
    await until(() => remote.servers.value[0]!.disabled.has('wipe'), 'wipe to be off');
    // A call to the switched-off tool is refused by the worker's gate without asking anyone.
    await expect(remote.call({ serverId: 'calc', toolName: 'wipe', arguments: {} })).rejects.toMatchObject({
      kind: 'denied',
      message: expect.stringContaining('switched off'),
    });
    expect(remote.approvals.value).toEqual([]);
    expect(calls).toEqual([]);
    // Switched on again, it is asked about like any other tool.
    await remote.setToolEnabled('calc', 'wipe', true);
    const again = remote.call({ serverId: 'calc', toolName: 'wipe', arguments: {} });
    await until(() => remote.approvals.value.length === 1, 'the approval for wipe');
    remote.approvals.value[0]!.answer({ action: 'deny' });
    await expect(again).rejects.toMatchObject({ kind: 'denied' });
    expect(calls).toEqual([]);
    await expect(remote.addServer({ frameUrl: 'https://x.example/server.html' })).rejects.toThrow(/by URL/);
  });

  it('approvals carry their deadline over the wire; remembered ones are listed and revoked through the worker', async () => {
    const { remote, calls } = await setup();
    const first = remote.call({ serverId: 'calc', toolName: 'add', arguments: { a: 1, b: 1 } });
    await until(() => remote.approvals.value.length === 1, 'the approval');
    const { request } = remote.approvals.value[0]!;
    expect(request.deadline).toBeGreaterThan(Date.now());
    expect(request.requiresAcknowledgement).toBe(false);
    remote.approvals.value[0]!.answer({ action: 'allow', remember: 'session' });
    await first;
    await until(() => remote.rememberedVersion.value > 0, 'the policy change to be mirrored');
    const remembered = await remote.listRemembered();
    expect(remembered).toMatchObject([
      { type: 'grant', serverId: 'calc', toolName: 'add', scope: 'session', caller: { kind: 'person' } },
    ]);
    // Remembered: the next call runs unasked.
    await remote.call({ serverId: 'calc', toolName: 'add', arguments: { a: 2, b: 2 } });
    expect(calls).toHaveLength(2);
    expect(await remote.forgetRemembered(remembered[0]!)).toBe(true);
    expect(await remote.listRemembered()).toEqual([]);
    const third = remote.call({ serverId: 'calc', toolName: 'add', arguments: { a: 3, b: 3 } });
    await until(() => remote.approvals.value.length === 1, 'the approval after revoking');
    remote.approvals.value[0]!.answer({ action: 'deny' });
    await expect(third).rejects.toMatchObject({ kind: 'denied' });
    expect(calls).toHaveLength(2);
  });

  it('Inspect and ping in the page: the worker’s exchange mirrored, ping and logging/setLevel sent by the worker', async () => {
    const { remote, controller } = await setup();
    const ms = await remote.ping('calc');
    expect(ms).toBeGreaterThanOrEqual(0);
    await until(() => remote.servers.value[0]?.ping !== undefined, 'the ping to be mirrored');
    expect(remote.servers.value[0]!.ping).toMatchObject({ ms, method: 'ping' });
    await remote.setLogLevel('calc', 'debug');
    await until(() => remote.servers.value[0]?.logLevel === 'debug', 'the log level to be mirrored');
    // The page's copy of the exchange is the worker's, message for message.
    const sequence = (entries: readonly { seq: number }[] | undefined) => (entries ?? []).map((e) => e.seq);
    await until(
      () => sequence(remote.traffic.value.calc).join() === sequence(controller.traffic!.value.calc).join(),
      'the exchange to be mirrored',
    );
    const summaries = remote.traffic.value.calc!.map(
      (entry) => (entry.message as { method?: string }).method,
    );
    expect(summaries).toEqual(expect.arrayContaining(['ping', 'logging/setLevel', 'tools/list']));
  });

  it('when the worker goes away, a waiting call fails as interrupted and the page reconnects', async () => {
    const { remote, connections } = await setup({ holdCalls: true });
    const call = remote.call({ serverId: 'calc', toolName: 'add', arguments: { a: 1, b: 2 } });
    await until(() => remote.approvals.value.length === 1, 'the approval');
    remote.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    await until(() => remote.running.value.some((item) => item.sentAt !== undefined), 'the call to be sent');
    connections[0]![0].disconnect();
    await expect(call).rejects.toMatchObject({
      kind: 'interrupted',
      message: expect.stringContaining('stopped'),
    });
    expect(remote.connected.value).toBe(false);
    await until(() => connections.length === 2 && remote.connected.value, 'the reconnect');
    await until(() => remote.servers.value[0]?.state === 'connected', 'the state after reconnecting');
    remote.close();
  });
});
