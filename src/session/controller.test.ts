/**
 * The composed controller against a real SDK server over HTTP (e2e/peers, 'sdk1-stateless-json'):
 * a call takes one object and is followed from requested to finished; the person's queue is the
 * gate's approver and is settled when the controller closes; the skills hub is the controller's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { createPolicy, memorySettingsStore } from '../gate/index.js';
import { type Controller, createController } from './controller.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startPeer('sdk1-stateless-json');
});
afterAll(async () => {
  await peer?.stop();
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let wait = 0; !check(); wait++) {
    if (wait > 2000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function connected(): Promise<Controller> {
  const controller = createController({
    audit: 'memory',
    policy: createPolicy({ store: memorySettingsStore() }),
    skills: { store: memorySettingsStore() },
    personLabel: 'Ada',
    servers: [{ id: 'sdk', url: peer.url }],
  });
  await until(() => controller.servers.value[0]?.state !== 'connecting', 'the connection');
  expect(controller.servers.value[0]?.error).toBeUndefined();
  return controller;
}

const echoed = async () =>
  ((await peer.events()).calls ?? []).filter((call: { tool: string }) => call.tool === 'echo');

describe('createController', () => {
  it('runs a call given as one object: the person by default, followed from its id to its outcome', async () => {
    const controller = await connected();
    const ids: string[] = [];
    const call = controller.call({
      serverId: 'sdk',
      toolName: 'echo',
      arguments: { message: 'one object' },
      onRequested: (id) => ids.push(id),
    });
    await until(() => controller.approvals.value.length === 1, 'the approval');
    const [pending] = controller.approvals.value;
    expect(pending?.request.caller).toEqual({ kind: 'person', label: 'Ada' });
    expect(ids).toEqual([pending?.request.invocationId]);
    expect(controller.running.value.map((running) => running.invocationId)).toEqual(ids);
    pending?.answer({ action: 'allow', remember: 'once' });
    const outcome = await call;
    expect(outcome.result.content).toEqual([{ type: 'text', text: 'Echo: one object' }]);
    expect(controller.running.value).toEqual([]);
    expect(controller.finished.value[0]).toMatchObject({
      invocationId: ids[0],
      serverId: 'sdk',
      toolName: 'echo',
      caller: { kind: 'person', label: 'Ada' },
      arguments: { message: 'one object' },
      outcome: { ok: true },
    });
    await controller.close();
  });

  it("takes a call off the person's queue when its caller gives up, and denies what waits at close", async () => {
    const controller = await connected();
    const before = (await echoed()).length;
    const abort = new AbortController();
    const given = controller
      .call({
        serverId: 'sdk',
        toolName: 'echo',
        arguments: { message: 'given up' },
        caller: { kind: 'host', label: 'the assistant' },
        signal: abort.signal,
      })
      .catch((error: Error) => error);
    await until(() => controller.approvals.value.length === 1, 'the approval');
    abort.abort();
    expect(await given).toMatchObject({ name: 'RequestCancelledError' });
    expect(controller.approvals.value).toEqual([]);

    const waiting = controller
      .call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'while closing' } })
      .catch((error: Error) => error);
    await until(() => controller.approvals.value.length === 1, 'the next approval');
    await controller.close();
    expect(await waiting).toMatchObject({ name: 'DeniedError', message: expect.stringMatching(/closed/) });
    expect(controller.approvals.value).toEqual([]);
    expect((await echoed()).length).toBe(before);
    await expect(
      controller.call({ serverId: 'sdk', toolName: 'echo', arguments: { message: 'after close' } }),
    ).rejects.toThrow(/closed/);
  });

  it('has one skills hub of its own, shared by every caller of skills()', async () => {
    const first = await connected();
    const second = await connected();
    const hub = await first.skills();
    expect(await first.skills()).toBe(hub);
    expect(await second.skills()).not.toBe(hub);
    expect(hub.snapshot().map((server) => server.serverId)).toEqual(['sdk']);
    await first.removeServer('sdk');
    expect(hub.snapshot()).toEqual([]);
    await first.close();
    await second.close();
  });
});
