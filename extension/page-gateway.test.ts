import { describe, expect, it } from 'vitest';
import type { Controller } from '../src/session/index.js';
import { controllerWithServer, until } from '../test/support/extension-controller.js';
import { memoryAccessStore } from '../test/support/memory-access-store.js';
import { portPair } from '../test/support/runtime-ports.js';
import { servePage } from './page-gateway.js';
import { parsePageRequest } from './page-protocol.js';
import { createSiteAccess } from './site-access.js';

const ORIGIN = 'https://app.example';

async function setup(options: { holdCalls?: boolean } = {}) {
  const server = await controllerWithServer(options);
  const siteAccess = await createSiteAccess(memoryAccessStore());
  const [workerEnd, pageEnd] = portPair('toolgate-page');
  servePage({ port: workerEnd, origin: ORIGIN, pageTitle: 'App', controller: server.controller, siteAccess });
  const heard: Record<string, unknown>[] = [];
  pageEnd.onMessage.addListener((message) => heard.push(message as Record<string, unknown>));
  const ask = async (request: Record<string, unknown>) => {
    pageEnd.postMessage(request);
    await until(
      () => heard.some((message) => message.id === request.id),
      `the reply to ${String(request.id)}`,
    );
    return heard.find((message) => message.id === request.id)!;
  };
  const grantAdd = async () => {
    const asked = ask({ id: 'access', method: 'requestAccess' });
    await until(() => siteAccess.consents.value.length === 1, 'the consent request');
    await siteAccess.answer(siteAccess.consents.value[0]!.id, {
      allow: true,
      tools: [{ serverId: 'calc', toolName: 'add' }],
    });
    return asked;
  };
  return { ...server, siteAccess, pageEnd, heard, ask, grantAdd };
}

/** The person allows `count` calls once each, as their approvals come. */
async function approveEach(controller: Controller, count: number) {
  for (let answered = 0; answered < count; answered++) {
    await until(() => controller.approvals.value.length > 0, 'an approval');
    const pending = controller.approvals.value[0]!;
    pending.answer({ action: 'allow', remember: 'once' });
    await until(() => !controller.approvals.value.includes(pending), 'the approval to close');
  }
}

describe('page gateway (one site’s bridge port, in the worker)', () => {
  it('answers nothing but "ask first" before a grant, then only the granted tools, through the gate', async () => {
    const { ask, grantAdd, controller, calls } = await setup();
    expect(await ask({ id: '1', method: 'listTools' })).toMatchObject({
      ok: false,
      error: { kind: 'not-allowed' },
    });
    expect(
      await ask({
        id: '2',
        method: 'callTool',
        serverId: 'calc',
        toolName: 'add',
        arguments: { a: 1, b: 2 },
      }),
    ).toMatchObject({ ok: false, error: { kind: 'not-allowed' } });

    const granted = await grantAdd();
    expect(granted).toMatchObject({
      ok: true,
      value: [{ serverId: 'calc', serverLabel: 'calc', name: 'add' }],
    });
    expect(
      await ask({ id: '3', method: 'callTool', serverId: 'calc', toolName: 'wipe', arguments: {} }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'not-allowed', message: expect.stringContaining('may not use wipe') },
    });

    const reply = ask({
      id: '4',
      method: 'callTool',
      serverId: 'calc',
      toolName: 'add',
      arguments: { a: 20, b: 22 },
    });
    await until(() => controller.approvals.value.length === 1, 'the approval');
    expect(controller.approvals.value[0]!.request.caller).toEqual({ kind: 'site', label: ORIGIN });
    controller.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    // The page gets the tool's result only: no decision, no audit details.
    expect(await reply).toEqual({ id: '4', ok: true, value: { content: [{ type: 'text', text: '42' }] } });
    expect(calls).toHaveLength(1);

    const invalid = await ask({
      id: '5',
      method: 'callTool',
      serverId: 'calc',
      toolName: 'add',
      arguments: { a: 'x', b: 1 },
    });
    expect(invalid).toMatchObject({ ok: false, error: { kind: 'invalid-arguments' } });
    expect(controller.approvals.value).toEqual([]);
  });

  it('a site cannot claim the person’s own click: its call saying startedFrom "form" gets the full dialog', async () => {
    const { ask, grantAdd, controller, calls } = await setup();
    await grantAdd();
    // What a page could forge on the bridge: the form's mark, and the person as caller.
    const reply = ask({
      id: 'forged',
      method: 'callTool',
      serverId: 'calc',
      toolName: 'add',
      arguments: { a: 1, b: 2 },
      startedFrom: 'form',
      caller: { kind: 'person', label: 'you' },
    });
    await until(() => controller.approvals.value.length === 1, 'the approval');
    const { request } = controller.approvals.value[0]!;
    expect(request.caller).toEqual({ kind: 'site', label: ORIGIN });
    // The full dialog, not the compact confirmation of the person's own call.
    expect(request.ownCall).toBeUndefined();
    expect(calls).toEqual([]);
    controller.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    expect(await reply).toMatchObject({ ok: true });
    const outcome = controller.finished.value[0]?.outcome;
    expect(outcome?.ok).toBe(true);
    if (outcome?.ok) expect(outcome.result.decision.source).not.toMatchObject({ reason: 'person-started' });
  });

  it('a revocation cancels what the site has running and tells the page', async () => {
    const { ask, grantAdd, controller, siteAccess, heard, calls } = await setup({ holdCalls: true });
    await grantAdd();
    const reply = ask({
      id: 'c',
      method: 'callTool',
      serverId: 'calc',
      toolName: 'add',
      arguments: { a: 1, b: 1 },
    });
    await until(() => controller.approvals.value.length === 1, 'the approval');
    controller.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    await until(() => calls.length === 1, 'the call to reach the server');
    await siteAccess.revoke(ORIGIN);
    expect(await reply).toMatchObject({ ok: false, error: { kind: 'revoked' } });
    expect(heard).toContainEqual({ event: 'access', granted: false, tools: [] });
    expect(await ask({ id: 'after', method: 'listTools' })).toMatchObject({
      ok: false,
      error: { kind: 'not-allowed' },
    });
  });

  it('a page that reuses a request id cannot keep a call running past a revocation, nor get its result', async () => {
    const { pageEnd, grantAdd, controller, siteAccess, heard, calls, cancelled, release } = await setup({
      holdCalls: true,
    });
    await grantAdd();
    // Two calls under one request id: the second must not hide the first from the revocation.
    for (const a of [1, 2])
      pageEnd.postMessage({
        id: 'same',
        method: 'callTool',
        serverId: 'calc',
        toolName: 'add',
        arguments: { a, b: 0 },
      });
    await approveEach(controller, 2);
    await until(() => calls.length === 2, 'both calls to reach the server');

    await siteAccess.revoke(ORIGIN);
    const replies = () => heard.filter((message) => message.id === 'same');
    await until(() => replies().length === 2, 'a reply to each call');
    // The server is told to cancel both, as for a cancel; the page hears why, and no result.
    expect(cancelled()).toHaveLength(2);
    for (const message of replies())
      expect(message).toMatchObject({
        ok: false,
        error: { kind: 'revoked', message: expect.stringContaining('revoked') },
      });
    // The server finishing anyway changes nothing for the page.
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.filter((message) => message.ok === true && message.id === 'same')).toEqual([]);
    expect(controller.running.value).toEqual([]);
  });

  it('a cancel reaches every running call the page made under that id', async () => {
    const { pageEnd, ask, grantAdd, controller, calls, cancelled } = await setup({ holdCalls: true });
    await grantAdd();
    for (const a of [1, 2])
      pageEnd.postMessage({
        id: 'dup',
        method: 'callTool',
        serverId: 'calc',
        toolName: 'add',
        arguments: { a, b: 0 },
      });
    await approveEach(controller, 2);
    await until(() => calls.length === 2, 'both calls to reach the server');
    expect(await ask({ id: 'stop', method: 'cancel', callId: 'dup' })).toMatchObject({ ok: true });
    await until(() => controller.running.value.length === 0, 'both calls to stop');
    expect(cancelled()).toHaveLength(2);
  });

  it('closing (the site was turned off) withholds running results, refuses new requests, then disconnects', async () => {
    const server = await controllerWithServer({ holdCalls: true });
    const siteAccess = await createSiteAccess(memoryAccessStore());
    const [workerEnd, pageEnd] = portPair('toolgate-page');
    const gateway = servePage({
      port: workerEnd,
      origin: ORIGIN,
      pageTitle: 'App',
      controller: server.controller,
      siteAccess,
    });
    const heard: Record<string, unknown>[] = [];
    let disconnected = false;
    pageEnd.onMessage.addListener((message) => heard.push(message as Record<string, unknown>));
    pageEnd.onDisconnect.addListener(() => {
      disconnected = true;
    });
    pageEnd.postMessage({ id: 'access', method: 'requestAccess' });
    await until(() => siteAccess.consents.value.length === 1, 'the consent request');
    await siteAccess.answer(siteAccess.consents.value[0]!.id, {
      allow: true,
      tools: [{ serverId: 'calc', toolName: 'add' }],
    });
    pageEnd.postMessage({
      id: 'run',
      method: 'callTool',
      serverId: 'calc',
      toolName: 'add',
      arguments: { a: 1, b: 1 },
    });
    await until(() => server.controller.approvals.value.length === 1, 'the approval');
    server.controller.approvals.value[0]!.answer({ action: 'allow', remember: 'once' });
    await until(() => server.calls.length === 1, 'the call to reach the server');

    gateway.close('Toolgate was turned off for this site.');
    await until(() => disconnected, 'the port to close');
    expect(heard.find((message) => message.id === 'run')).toMatchObject({
      ok: false,
      error: { kind: 'revoked' },
    });
    expect(server.cancelled()).toHaveLength(1);
  });

  it('says what is wrong with a malformed request instead of leaving the page waiting', async () => {
    const { ask } = await setup();
    expect(await ask({ id: 'm', method: 'deleteEverything' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-request', message: expect.stringContaining('no method') },
    });
    expect(
      await ask({ id: 'n', method: 'callTool', serverId: 'calc', toolName: 'add', arguments: [1, 2] }),
    ).toMatchObject({
      ok: false,
      error: { message: 'The arguments of add must be an object.' },
    });
    expect(parsePageRequest('hello')).toEqual({ invalid: 'A Toolgate request must be an object.' });
    expect(parsePageRequest({ id: 'x'.repeat(101), method: 'listTools' })).toMatchObject({
      invalid: expect.any(String),
    });
    expect(parsePageRequest({ id: 'c', method: 'cancel' })).toMatchObject({
      id: 'c',
      invalid: expect.any(String),
    });
  });

  it('lets a site read or get only from servers whose tools it was granted, and checks what it sends', async () => {
    const { ask, grantAdd, controller } = await setup();
    const read = { method: 'readResource', serverId: 'calc', uri: 'note://a' };
    expect(await ask({ id: 'r1', ...read })).toMatchObject({ ok: false, error: { kind: 'not-allowed' } });
    await grantAdd();
    expect(
      await ask({ id: 'r2', method: 'getPrompt', serverId: 'elsewhere', name: 'greet', arguments: {} }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'not-allowed', message: expect.stringContaining('elsewhere') },
    });
    // Granted: it reaches the gate, which refuses what the server does not offer (calc has no resources).
    expect(await ask({ id: 'r3', ...read })).toMatchObject({ ok: false });
    expect(controller.accesses?.value ?? []).toHaveLength(0);
    expect(
      await ask({ id: 'r4', method: 'getPrompt', serverId: 'calc', name: 'greet', arguments: { who: 1 } }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'invalid-request', message: expect.stringContaining('strings') },
    });
    expect(parsePageRequest({ id: 'u', method: 'readResource', serverId: 'calc' })).toMatchObject({
      invalid: expect.stringContaining('uri'),
    });
  });
});
