import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest } from '../../src/auth/index.js';
import { controllerWithServer, until } from '../../test/support/extension-controller.js';
import { portPair } from '../../test/support/runtime-ports.js';
import { servePanel } from '../remote/controller-host.js';
import { createRemoteController } from '../remote/remote-controller.js';
import { createSiteAccess } from '../site-access.js';
import { createSignInPrompts } from './prompts.js';

function request(signal = new AbortController().signal): AuthorizationRequest {
  return {
    url: new URL('https://as.example/authorize?state=s'),
    redirectUri: 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/oauth',
    issuer: 'https://as.example',
    server: 'Notes',
    scopes: ['mcp:tools'],
    signal,
  };
}

describe('sign-in prompts (the worker waits for the person before opening anything)', () => {
  it('a yes resolves, a no rejects naming the server, and either leaves the queue', async () => {
    const prompts = createSignInPrompts((id) => (id === 'notes' ? 'Notes' : id));
    const yes = prompts.ask('notes', request());
    const no = prompts.ask('notes', request());
    expect(
      prompts.pending.value.map(({ serverId, issuer, scopes }) => ({ serverId, issuer, scopes })),
    ).toEqual([
      { serverId: 'notes', issuer: 'https://as.example', scopes: ['mcp:tools'] },
      { serverId: 'notes', issuer: 'https://as.example', scopes: ['mcp:tools'] },
    ]);
    const [first, second] = prompts.pending.value;
    prompts.answer(first!.id, true);
    prompts.answer(second!.id, false);
    await expect(yes).resolves.toBeUndefined();
    await expect(no).rejects.toThrow('You chose not to sign in to Notes now');
    expect(prompts.pending.value).toEqual([]);
    expect(() => prompts.answer(first!.id, true)).toThrow('no longer waiting');
  });

  it('a cancelled sign-in and a removed server leave nothing waiting', async () => {
    const prompts = createSignInPrompts((id) => id);
    const abort = new AbortController();
    const cancelled = prompts.ask('a', request(abort.signal));
    const removed = prompts.ask('b', request());
    abort.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    prompts.dropServer('b');
    await expect(removed).rejects.toThrow('chose not to sign in to b');
    expect(prompts.pending.value).toEqual([]);
  });

  it('crosses the panel port: the page sees the prompt, and its "Sign in" answers the worker', async () => {
    const server = await controllerWithServer();
    const siteAccess = await createSiteAccess({ load: async () => [], save: async () => undefined });
    const prompts = createSignInPrompts((id) => id);
    const remote = createRemoteController({
      connect: () => {
        const [worker, page] = portPair('toolgate-panel');
        servePanel({ port: worker, controller: server.controller, siteAccess, signIns: prompts });
        return page;
      },
      openAuditLog: () => Promise.reject(new Error('no IndexedDB in this test')),
      reconnectDelayMs: 1,
    });
    const asked = prompts.ask('calc', request());
    await until(() => remote.signIns.value.length === 1, 'the mirrored sign-in');
    expect(remote.signIns.value[0]).toMatchObject({ serverId: 'calc', issuer: 'https://as.example' });
    remote.signIns.value[0]!.accept();
    await expect(asked).resolves.toBeUndefined();
    await until(() => remote.signIns.value.length === 0, 'the sign-in to leave');

    const declined = prompts.ask('calc', request());
    await until(() => remote.signIns.value.length === 1, 'the second sign-in');
    remote.signIns.value[0]!.decline();
    await expect(declined).rejects.toThrow('chose not to sign in');
    remote.close();
  });
});
