/**
 * The manual's examples run: each named block of README.md and docs/ (test/docs/doc-examples.ts)
 * is taken from the Markdown as it is, bundled against the package's entry points (package.json
 * exports -> the build's source entries) and run in Chromium, against a real MCP server (the
 * docs-files peer (modern.mjs --read-file --offerings), reached at the examples' own https://example.com URLs by routing), with the
 * names an example leaves to the reader given real values first (e2e/fixtures/doc-examples/
 * world.ts). Each test checks that the example did what its text says; test/docs/examples.test.ts
 * compiles them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, type Route, test } from '@playwright/test';
import { build, type Rolldown } from 'vite';
import { exampleCode, packageEntries, ROOT } from '../test/docs/doc-examples.js';
import { bundle } from './support/bundle.js';
import { type Peer, startPeer } from './support/peers.js';

// The page (a public origin) reaches the peer on 127.0.0.1, as the other widget specs do.
test.use({ permissions: ['local-network-access'] });

const PAGE = 'https://docs.test';
const RUN_DIR = join(ROOT, '.doc-examples', 'run');
const COLLECTOR = 'https://otel.example.com:4318';

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer('docs-files');
});
test.afterAll(async () => {
  await peer?.stop();
});

/**
 * One module: the world for `name`, then the example exactly as the Markdown has it, then (for the
 * test to read) the example's own top-level names listed in `observe`.
 */
async function bundleExample(name: string, observe: string[], peerUrl = peer.url): Promise<string> {
  mkdirSync(RUN_DIR, { recursive: true });
  const example = join(RUN_DIR, `${name}.ts`);
  const entry = join(RUN_DIR, `${name}.entry.ts`);
  const reading = observe.length
    ? `\n;Object.assign(window.docExample, { observed: { ${observe.join(', ')} } });\n`
    : '\n';
  writeFileSync(example, `${exampleCode(name)}${reading}export {};\n`);
  writeFileSync(
    entry,
    [
      `import { setUpWorld } from ${JSON.stringify(join(ROOT, 'e2e/fixtures/doc-examples/world.ts'))};`,
      `await setUpWorld(${JSON.stringify(name)}, ${JSON.stringify(peerUrl)});`,
      'try {',
      `  await import(${JSON.stringify(example)});`,
      "  document.body.dataset.example = 'done';",
      '} catch (error) {',
      "  document.body.dataset.example = 'failed: ' + String(error);",
      '}',
    ].join('\n'),
  );
  const entries = await packageEntries();
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    resolve: {
      alias: Object.entries(entries).map(([specifier, source]) => ({
        find: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
        replacement: source,
      })),
    },
    build: {
      write: false,
      minify: false,
      sourcemap: 'inline',
      lib: { entry, formats: ['es'], fileName: 'example' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  for (const item of outputs.flatMap((o) => o.output))
    if (item.type === 'chunk' && item.isEntry) return item.code;
  throw new Error(`bundling example=${name} produced no entry chunk`);
}

const cors = { 'access-control-allow-origin': PAGE };

/** Answers `pattern` as a server of the reader's would (CORS for the page), keeping what was sent. */
async function recordPosts(
  page: Page,
  pattern: string,
): Promise<{ headers: Record<string, string>; body: string }[]> {
  const posts: { headers: Record<string, string>; body: string }[] = [];
  await page.route(pattern, (route: Route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS')
      return route.fulfill({
        status: 204,
        headers: {
          ...cors,
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': 'content-type, authorization',
        },
      });
    posts.push({ headers: request.headers(), body: request.postData() ?? '' });
    return route.fulfill({
      status: 200,
      headers: { ...cors, 'content-type': 'application/json' },
      body: '{}',
    });
  });
  return posts;
}

async function runExample(
  page: Page,
  name: string,
  observe: string[] = [],
  /** The server the example's https://example.com/mcp reaches (default: the docs-files peer). */
  peerUrl = peer.url,
): Promise<void> {
  const script = await bundleExample(name, observe, peerUrl);
  await page.route(`${PAGE}/**`, (route) =>
    new URL(route.request().url()).pathname === '/example.js'
      ? route.fulfill({ contentType: 'application/javascript', body: script })
      : route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>A docs example</title><body><script type="module" src="/example.js"></script></body></html>',
        }),
  );
  await page.goto(`${PAGE}/`);
}

/** Serves an html example as the page, with the drop-in script beside it. */
async function openHtmlExample(page: Page, name: string, head = ''): Promise<void> {
  const dropIn = await bundle((await packageEntries())['toolgate/widget.js'] as string);
  const servers = await bundle('e2e/fixtures/doc-examples/html-servers.ts');
  await page.route(`${PAGE}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/servers.js')
      return route.fulfill({ contentType: 'application/javascript', body: servers });
    return path === '/toolgate-widget.js'
      ? route.fulfill({ contentType: 'application/javascript', body: dropIn })
      : route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html lang="en"><title>A docs example</title><script type="module" src="/servers.js?peer=${encodeURIComponent(peer.url)}"></script>${head}<body>${exampleCode(name)}</body></html>`,
        });
  });
  await page.goto(`${PAGE}/`);
}

async function finished(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-example', 'done', { timeout: 30_000 });
}

async function allowOnce(page: Page, askedBy?: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible({ timeout: 30_000 });
  if (askedBy) await expect(dialog).toContainText(askedBy);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
}

const observed = (page: Page, name: string) =>
  page.evaluate(
    (key) =>
      JSON.stringify((window.docExample as unknown as { observed: Record<string, unknown> }).observed[key]),
    name,
  );

for (const name of ['embed-readme', 'embed']) {
  test(`example=${name}: the drop-in panel connects to the server and lists its tools`, async ({ page }) => {
    await openHtmlExample(page, name);
    await expect(page.locator('toolgate-panel .tg-badge').first()).toContainText('connected', {
      timeout: 30_000,
    });
    await page.getByRole('tab', { name: 'Tools' }).click();
    await expect(page.locator('.tg-tool-button', { hasText: 'read_file' })).toBeVisible();
  });
}

test('example=host-readme: a host call waits for the person, then reads the file', async ({ page }) => {
  await runExample(page, 'host-readme', ['outcome']);
  await allowOnce(page);
  await finished(page);
  expect(await observed(page, 'outcome')).toContain('the text of a.txt');
});

test('example=host-openai: the model is offered the tools, its call runs, the result goes back', async ({
  page,
}) => {
  await runExample(page, 'host-openai');
  await allowOnce(page);
  await finished(page);
  const messages = await page.evaluate(() => window.docExample.world.messages);
  expect(messages?.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  expect(JSON.stringify(messages?.at(-1))).toContain('the text of notes.txt');
});

test('example=gate-call: the gate asks (confirm), sends, and the reply is for a model', async ({ page }) => {
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await runExample(page, 'gate-call');
  await finished(page);
  expect(asked).toEqual(['Run read_file?']);
  expect(await page.evaluate(() => window.docExample.replies)).toMatchObject([
    { isError: false, text: expect.stringContaining('the text of /tmp/x') },
  ]);
});

test('example=resources-prompts: lists, completes, subscribes, reads as the person, gets a prompt when allowed', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await runExample(page, 'resources-prompts', [
    'resources',
    'resourceTemplates',
    'prompts',
    'completion',
    'read',
    'greeting',
  ]);
  await finished(page);
  expect(asked).toEqual(['Let my agent use the prompt greet?']);
  expect(await observed(page, 'resources')).toContain('note://welcome');
  expect(await observed(page, 'resourceTemplates')).toContain('note://notes/{name}');
  expect(await observed(page, 'prompts')).toContain('greet');
  expect(await observed(page, 'completion')).toContain('wishlist');
  expect(await observed(page, 'read')).toContain('Welcome to Toolgate');
  expect(await observed(page, 'greeting')).toContain('Please greet Ada warmly.');
});

test('example=host-prompts-resources: a prompt completed and got, a resource read, each asked, as OpenAI messages', async ({
  page,
}) => {
  await runExample(page, 'host-prompts-resources', ['names', 'conversation']);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Use a prompt on', { timeout: 30_000 });
  await expect(dialog).toContainText('who = Ada');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toContainText('Read a resource on');
  await expect(dialog).toContainText('note://welcome');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await finished(page);
  expect(JSON.parse(await observed(page, 'names'))).toEqual(['Ada', 'Alan']);
  const conversation = JSON.parse(await observed(page, 'conversation'));
  expect(conversation).toEqual([
    {
      role: 'user',
      content: [
        { type: 'text', text: expect.stringContaining('Ada') },
        { type: 'text', text: '[resource note://welcome, text/plain]\nWelcome to Toolgate' },
      ],
    },
  ]);
});

test('example=rules: rules are saved, ordered, and a bad import is refused field by field', async ({
  page,
}) => {
  await runExample(page, 'rules', ['order', 'refused']);
  await finished(page);
  expect(JSON.parse(await observed(page, 'order'))).toEqual(['Only my notes', 'Small payments']);
  expect(JSON.parse(await observed(page, 'refused'))).toBe('rules[0].verdict');
});

test('example=connect: the era, the tools, a call with the header', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  const authorizations: (string | undefined)[] = [];
  page.on('request', (request) => {
    if (request.url() === peer.url && request.method() === 'POST')
      authorizations.push(request.headers().authorization);
  });
  await runExample(page, 'connect', ['tools', 'result']);
  await finished(page);
  expect(logged).toContain('modern 2026-07-28');
  expect(await observed(page, 'tools')).toContain('read_file');
  expect(await observed(page, 'result')).toContain('Echo: hi');
  const events = await peer.events();
  expect(events.calls).toContainEqual({ tool: 'echo', arguments: { message: 'hi' } });
  expect(authorizations.length).toBeGreaterThan(0);
  expect(new Set(authorizations)).toEqual(new Set(['Bearer doc-token']));
});

// These two take the options as written; a server that never answers 401 loads none of the
// sign-in code. The sign-in itself runs in e2e/oauth-*.spec.ts and src/auth/client-credentials-oidc.test.ts.
for (const name of ['sign-in', 'client-credentials']) {
  test(`example=${name}: connect() takes the auth options as written`, async ({ page }) => {
    await runExample(page, name);
    await finished(page);
  });
}

test('example=audit-anchors: the key is shipped, and the chain passes through the kept head', async ({
  page,
}) => {
  const shipped = await recordPosts(page, 'https://audit.example.com/**');
  await runExample(page, 'audit-anchors', ['result']);
  await finished(page);
  const keptKey = await page.evaluate(() => window.docExample.world.keptKey);
  expect(shipped.map((post) => JSON.parse(post.body))).toContainEqual(keptKey);
  expect(JSON.parse(await observed(page, 'result'))).toMatchObject({
    ok: true,
    anchor: { status: 'extends' },
  });
  // mount() put the panel into the element: its tabs are there.
  await expect(page.getByRole('tab', { name: 'Audit log' })).toBeVisible();
});

test('example=otlp-host: the call carries the span, the collector gets its records', async ({ page }) => {
  const collected = await recordPosts(page, `${COLLECTOR}/v1/logs`);
  await runExample(page, 'otlp-host');
  await allowOnce(page);
  await finished(page);
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const sent = (await peer.events()).messages.filter((m) => m.method === 'tools/call' && m.traceparent);
  expect(sent.map((m) => m.traceparent?.split('-')[1])).toContain(traceId);
  await expect
    .poll(() => collected.map((post) => post.body).join('\n'), { timeout: 20_000 })
    .toContain(traceId);
  expect(collected[0]?.headers.authorization).toBe('Bearer collector-key');
  expect(collected.map((post) => post.body).join('\n')).toContain('read_file');
});

test('example=otlp-panel: the element connects and exports its log', async ({ page }) => {
  await recordPosts(page, `${COLLECTOR}/v1/logs`);
  await openHtmlExample(page, 'otlp-panel', "<script>var collectorKey = 'collector-key';</script>");
  await expect(page.locator('toolgate-panel .tg-badge').first()).toContainText('connected', {
    timeout: 30_000,
  });
  const status = await page.evaluate(async () => {
    const exporter = await document.querySelector('toolgate-panel')?.otlpExport();
    await exporter?.flush();
    return exporter?.status();
  });
  expect(status).toBeDefined();
  expect(status?.state).not.toBe('stopped');
  expect(status?.problem).toBeUndefined();
});

test('example=apps-events: a call in answer to an app is asked as the app', async ({ page }) => {
  await runExample(page, 'apps-events', ['outcome']);
  await allowOnce(page, 'ui://files/viewer.html');
  await finished(page);
  expect(await observed(page, 'outcome')).toContain('the text of a.txt');
});

test('example=tasks: a call the server runs as a task resolves with its result, statuses seen on the way', async ({
  page,
}) => {
  // Our 2026-07-28 tasks peer: no official server implements the extension yet.
  const tasks = await startPeer('tasks-modern');
  try {
    await runExample(page, 'tasks', ['result', 'statuses'], tasks.url);
    await finished(page);
    expect(await observed(page, 'result')).toContain('done after 1s');
    expect(await observed(page, 'statuses')).toContain('completed: Finished');
  } finally {
    await tasks.stop();
  }
});
