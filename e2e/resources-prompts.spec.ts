/**
 * Resources, templates, prompts, completion and subscriptions in Chromium against real servers:
 * @modelcontextprotocol/server-everything, an SDK 1.x peer and a 2026-07-28 SDK 2.x peer (both
 * with --offerings, e2e/peers/offerings.mjs). The client runs in a page on another origin; reads
 * and prompt gets also go through the gate, into a real audit log (IndexedDB).
 */
import { expect, type Page, test } from '@playwright/test';
import type { Outcome } from './fixtures/resources-prompts/page.js';
import { bundle } from './support/bundle.js';
import { type Peer, type PeerKind, startPeer } from './support/peers.js';

const APP_ORIGIN = 'https://app.test';
const PAGE_HTML =
  '<!doctype html><meta charset="utf-8"><title>Toolgate offerings</title><script type="module" src="/page.js"></script>';

async function openApp(page: Page): Promise<void> {
  const script = await bundle('e2e/fixtures/resources-prompts/page.ts');
  await page.route(`${APP_ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/page.js'
      ? route.fulfill({ status: 200, contentType: 'text/javascript', body: script })
      : route.fulfill({ status: 200, contentType: 'text/html', body: PAGE_HTML }),
  );
  await page.goto(`${APP_ORIGIN}/`);
  await page.waitForFunction(() => 'offerings' in window);
}

const run = (page: Page, method: string, params: Record<string, unknown> = {}) =>
  page.evaluate(([m, p]) => window.offerings.run(m, p as never), [method, params] as const);

function value<T>(outcome: Outcome): T {
  if (!outcome.ok) throw new Error(`${outcome.error.name}: ${outcome.error.message}`);
  return outcome.value as T;
}

test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['local-network-access'] });

/** Our peers: the same offerings on SDK 1.x (legacy era) and SDK 2.x (2026-07-28). */
const OURS: { kind: PeerKind; era: 'legacy' | 'modern' }[] = [
  { kind: 'sdk1-stateful-sse', era: 'legacy' },
  { kind: 'modern', era: 'modern' },
];

for (const { kind, era } of OURS)
  test.describe(`${kind} with resources and prompts`, () => {
    let peer: Peer;
    test.beforeAll(async () => {
      peer = await startPeer(kind, { args: ['--offerings'] });
    });
    test.afterAll(async () => {
      await peer?.stop();
    });

    test('lists, reads, completes, gets, subscribes, and the gate asks and records', async ({ page }) => {
      await openApp(page);
      const connected = await page.evaluate((url) => window.offerings.connect(url), peer.url);
      expect(connected.era).toBe(era);

      await test.step('resources, templates and prompts, as the spec returns them', async () => {
        const resources = value<{ resources: { uri: string; mimeType?: string }[] }>(
          await run(page, 'listResources'),
        );
        expect(resources.resources).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ uri: 'note://welcome', name: 'welcome', mimeType: 'text/plain' }),
            expect.objectContaining({ uri: 'note://logo', mimeType: 'image/png' }),
          ]),
        );
        const templates = value<{ resourceTemplates: unknown[] }>(await run(page, 'listResourceTemplates'));
        expect(templates.resourceTemplates).toEqual([
          expect.objectContaining({ uriTemplate: 'note://notes/{name}', name: 'note' }),
        ]);
        const prompts = value<{ prompts: unknown[] }>(await run(page, 'listPrompts'));
        expect(prompts.prompts).toEqual([
          expect.objectContaining({
            name: 'greet',
            arguments: [expect.objectContaining({ name: 'who', required: true })],
          }),
        ]);
      });

      await test.step('reads text and a blob', async () => {
        const text = value<{ contents: unknown[] }>(
          await run(page, 'readResource', { uri: 'note://welcome' }),
        );
        expect(text.contents).toEqual([
          { uri: 'note://welcome', mimeType: 'text/plain', text: 'Welcome to Toolgate' },
        ]);
        const blob = value<{ contents: { blob?: string }[] }>(
          await run(page, 'readResource', { uri: 'note://logo' }),
        );
        expect(blob.contents[0]?.blob).toMatch(/^iVBOR/);
        const templated = value<{ contents: { text?: string }[] }>(
          await run(page, 'readResource', { uri: 'note://notes/weekly' }),
        );
        expect(templated.contents[0]?.text).toBe('The note called weekly');
      });

      await test.step('completes a template variable and a prompt argument', async () => {
        const names = value<{ completion: { values: string[] } }>(
          await run(page, 'complete', {
            ref: { type: 'ref/resource', uri: 'note://notes/{name}' },
            argument: { name: 'name', value: 'w' },
          }),
        );
        expect(names.completion.values).toEqual(['welcome', 'weekly', 'wishlist']);
        const people = value<{ completion: { values: string[] } }>(
          await run(page, 'complete', {
            ref: { type: 'ref/prompt', name: 'greet' },
            argument: { name: 'who', value: 'A' },
          }),
        );
        expect(people.completion.values).toEqual(['Ada', 'Alan']);
      });

      await test.step('gets a prompt', async () => {
        const prompt = value<{ messages: unknown[] }>(
          await run(page, 'getPrompt', { name: 'greet', arguments: { who: 'Ada' } }),
        );
        expect(prompt.messages).toEqual([
          { role: 'user', content: { type: 'text', text: 'Please greet Ada warmly.' } },
        ]);
      });

      await test.step(`subscribes (${era === 'modern' ? 'subscriptions/listen' : 'resources/subscribe'}) and hears the update`, async () => {
        await page.evaluate(() => window.offerings.listen('resourceUpdated'));
        value(await run(page, 'subscribeResource', { uri: 'note://welcome' }));
        // A 2026-07-28 stream is open once the server has it; publish until the update arrives.
        await expect
          .poll(
            async () => {
              await fetch(
                `${new URL(peer.url).origin}/__control/resource-updated?uri=${encodeURIComponent('note://welcome')}`,
                {
                  method: 'POST',
                },
              );
              return page.evaluate(() => window.offerings.heard());
            },
            { timeout: 15_000 },
          )
          .toContainEqual({ event: 'resourceUpdated', update: { uri: 'note://welcome' } });
        const methods = (await peer.events()).messages.map((m) => m.method);
        expect(methods).toContain(era === 'modern' ? 'subscriptions/listen' : 'resources/subscribe');
        expect(methods).not.toContain(era === 'modern' ? 'resources/subscribe' : 'subscriptions/listen');
        value(await run(page, 'unsubscribeResource', { uri: 'note://welcome' }));
      });

      await test.step("the gate: the person's read allowed, a site's asked with the URI, both recorded", async () => {
        const own = await page.evaluate(() =>
          window.offerings.gate('read', { uri: 'note://welcome' }, { kind: 'person' }),
        );
        expect(value<{ received: { bytes: number } }>(own).received.bytes).toBeGreaterThan(0);
        expect(await page.evaluate(() => window.offerings.asked())).toHaveLength(0);
        const site = await page.evaluate(() =>
          window.offerings.gate(
            'read',
            { uri: 'note://notes/todo' },
            { kind: 'site', label: 'https://other.example' },
            'deny',
          ),
        );
        expect(site).toMatchObject({ ok: false, error: { name: 'DeniedError' } });
        const prompt = await page.evaluate(() =>
          window.offerings.gate(
            'getPrompt',
            { name: 'greet', arguments: { who: 'Grace' } },
            { kind: 'host', label: 'agent' },
          ),
        );
        expect(value<{ result: { messages: unknown[] } }>(prompt).result.messages).toHaveLength(1);
        const asked = await page.evaluate(() => window.offerings.asked());
        expect(asked).toEqual([
          expect.objectContaining({
            method: 'resources/read',
            target: { kind: 'resource', uri: 'note://notes/todo' },
          }),
          expect.objectContaining({
            method: 'prompts/get',
            target: { kind: 'prompt', name: 'greet', arguments: { who: 'Grace' } },
            listed: expect.objectContaining({ name: 'greet' }),
          }),
        ]);
        const audit = await page.evaluate(() => window.offerings.audit());
        expect(audit.map((entry) => [entry.toolName, entry.outcome])).toEqual([
          ['prompts/get', 'success'],
          ['resources/read', 'denied'],
          ['resources/read', 'success'],
        ]);
        expect(audit[2]?.final).toMatchObject({
          received: { bytes: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        });
      });
    });
  });

test.describe('server-everything', () => {
  let peer: Peer;
  test.beforeAll(async () => {
    peer = await startPeer('everything-streamable');
  });
  test.afterAll(async () => {
    await peer?.stop();
  });

  test('browses its resources, templates and prompts, completes, reads, and hears subscription updates', async ({
    page,
  }) => {
    await openApp(page);
    await page.evaluate((url) => window.offerings.connect(url), peer.url);
    const resources = value<{ resources: { uri: string }[] }>(await run(page, 'listResources'));
    expect(resources.resources.some((r) => r.uri.startsWith('demo://resource/static/document/'))).toBe(true);
    const templates = value<{ resourceTemplates: { uriTemplate: string }[] }>(
      await run(page, 'listResourceTemplates'),
    );
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        'demo://resource/dynamic/text/{resourceId}',
        'demo://resource/dynamic/blob/{resourceId}',
      ]),
    );
    const prompts = value<{ prompts: { name: string }[] }>(await run(page, 'listPrompts'));
    expect(prompts.prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']),
    );
    const departments = value<{ completion: { values: string[] } }>(
      await run(page, 'complete', {
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'S' },
      }),
    );
    expect(departments.completion.values).toEqual(['Sales', 'Support']);
    const team = value<{ completion: { values: string[] } }>(
      await run(page, 'complete', {
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'name', value: '' },
        context: { arguments: { department: 'Engineering' } },
      }),
    );
    expect(team.completion.values).toEqual(['Alice', 'Bob', 'Charlie']);
    const blob = value<{ contents: { blob?: string; mimeType?: string }[] }>(
      await run(page, 'readResource', { uri: 'demo://resource/dynamic/blob/1' }),
    );
    expect(blob.contents[0]?.blob).toBeTruthy();
    const embedded = value<{ messages: { content: { type: string } }[] }>(
      await run(page, 'getPrompt', {
        name: 'resource-prompt',
        arguments: { resourceType: 'Text', resourceId: '2' },
      }),
    );
    expect(embedded.messages.map((m) => m.content.type)).toContain('resource');

    await page.evaluate(() => window.offerings.listen('resourceUpdated'));
    value(await run(page, 'subscribeResource', { uri: 'demo://resource/dynamic/text/1' }));
    // Its simulated updates start with a tool, and go to the URIs this session subscribed to.
    value(await page.evaluate(() => window.offerings.callTool('toggle-subscriber-updates', {})));
    await expect
      .poll(() => page.evaluate(() => window.offerings.heard()), { timeout: 15_000 })
      .toContainEqual({ event: 'resourceUpdated', update: { uri: 'demo://resource/dynamic/text/1' } });
    value(await run(page, 'unsubscribeResource', { uri: 'demo://resource/dynamic/text/1' }));
  });
});
