/**
 * host.prompts() and host.resources() against two real SDK servers offering the same prompt name
 * (e2e/peers with --offerings): commands made unique per server, gets and reads asked as the app
 * (never as the person), completion answered, and what comes back given as messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { createPolicy, memorySettingsStore } from '../gate/index.js';
import { createToolgateHost, type ToolgateHost } from './host.js';

let peers: Peer[];
beforeAll(async () => {
  peers = await Promise.all([
    startPeer('sdk1-stateful-sse', { args: ['--offerings'] }),
    startPeer('sdk1-stateful-sse', { args: ['--offerings'] }),
  ]);
});
afterAll(async () => {
  await Promise.all(peers.map((peer) => peer.stop()));
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let wait = 0; !check(); wait++) {
    if (wait > 4000) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What the panel would show: the reads and gets waiting for the person. */
const questions = (host: ToolgateHost) => host.controller.accesses?.value ?? [];

async function connected(): Promise<ToolgateHost> {
  const host = createToolgateHost({
    audit: 'memory',
    policy: createPolicy({ store: memorySettingsStore() }),
    skills: { store: memorySettingsStore() },
    servers: peers.map((peer, index) => ({ id: `notes${index + 1}`, url: peer.url })),
  });
  await until(
    () => host.controller.servers.value.every((server) => server.state === 'connected'),
    'the connections',
  );
  return host;
}

describe('host prompts and resources', () => {
  it('names a prompt two servers share per server, completes its argument, and asks the app for the get', async () => {
    const host = await connected();
    const prompts = await host.prompts();
    expect(prompts.map((prompt) => prompt.command).sort()).toEqual(['notes1/greet', 'notes2/greet']);
    const greet = prompts.find((prompt) => prompt.serverId === 'notes2');
    expect(await greet?.complete('who', 'A')).toEqual(['Ada', 'Alan']);

    const got = greet?.get({ who: 'Grace' });
    await until(() => questions(host).length === 1, 'the question');
    const [pending] = questions(host);
    expect(pending?.request).toMatchObject({
      caller: { kind: 'host' },
      serverId: 'notes2',
      target: { kind: 'prompt', name: 'greet', arguments: { who: 'Grace' } },
    });
    pending?.answer({ action: 'allow', remember: 'once' });
    expect(JSON.stringify((await got)?.messages)).toContain('Grace');
    await host.close();
  });

  it('lists resources to attach; a read is asked as the app, and a denial rejects', async () => {
    const host = await connected();
    const resources = await host.resources();
    const welcome = resources.find(
      ({ serverId, resource }) => serverId === 'notes1' && resource.uri === 'note://welcome',
    );
    expect(welcome?.resource.title).toBe('Welcome note');

    const allowed = welcome?.read();
    await until(() => questions(host).length === 1, 'the question');
    questions(host)[0]?.answer({ action: 'allow', remember: 'once' });
    const read = await allowed;
    expect(read?.contents).toEqual([
      { uri: 'note://welcome', mimeType: 'text/plain', text: 'Welcome to Toolgate' },
    ]);
    expect(read?.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'note://welcome', mimeType: 'text/plain', text: 'Welcome to Toolgate' },
        },
      },
    ]);

    const denied = welcome?.read().catch((error: Error) => error.name);
    await until(() => questions(host).length === 1, 'the second question');
    questions(host)[0]?.answer({ action: 'deny' });
    expect(await denied).toBe('DeniedError');
    await host.close();
  });
});
