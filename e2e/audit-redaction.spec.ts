/**
 * Secrets reach neither IndexedDB, nor the export, in clear, under the names and in the shapes
 * people actually send them, while the server receives exactly what was approved. In Chromium, on
 * real IndexedDB, through the real gate to a real SDK server (e2e/peers/sdk1-streamable.mjs), whose
 * `run_with_credentials` tool records its arguments and echoes them back.
 */
import { expect, type Page, test } from '@playwright/test';
import type { AuditApi } from './fixtures/audit/page.js';
import { bundle } from './support/bundle.js';
import { startPeer } from './support/peers.js';

const ORIGIN = 'https://audit.test';

declare global {
  interface Window {
    auditApi: AuditApi;
  }
}

test.use({ permissions: ['local-network-access'] });

const BEARER = 'sk-e2e0123456789abcdefREDACTME';
const GITHUB_PAT = 'ghp_e2e0123456789abcdefghijREDACTME';
const AWS_SECRET = 'e2eAwsSecretAccessKey/REDACTME';
const AUTH_HEADER = 'e2e-auth-header-REDACTME';
const BEARER_FIELD = 'e2e-bearer-field-REDACTME';
const PASS = 'e2e-pass-REDACTME';

const ARGS = {
  auth_header: AUTH_HEADER,
  bearer: BEARER_FIELD,
  pass: PASS,
  env: { GITHUB_PAT, AWS_SECRET_ACCESS_KEY: AWS_SECRET, HOME: '/home/ada' },
  headers: [
    { name: 'Authorization', value: `Bearer ${BEARER}` },
    { name: 'Accept', value: 'application/json' },
  ],
  cmd: `curl -H 'Authorization: Bearer ${BEARER}' https://api.example.com/v1/models`,
};
const SECRETS = [BEARER, GITHUB_PAT, AWS_SECRET, AUTH_HEADER, BEARER_FIELD, PASS];
const NAMED = '[redacted: named like a secret]';

async function openLog(page: Page): Promise<void> {
  const script = await bundle('e2e/fixtures/audit/page.ts');
  await page.route(`${ORIGIN}/**`, (route) => {
    if (new URL(route.request().url()).pathname === '/page.js')
      return route.fulfill({ contentType: 'application/javascript', body: script });
    return route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>audit redaction</title><script type="module" src="/page.js"></script>',
    });
  });
  await page.goto(`${ORIGIN}/`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await page.evaluate(() => window.auditApi.open('audit-redaction'));
}

test('credentials under common names and in curl lines are stored redacted and marked; the server gets them in clear', async ({
  page,
}) => {
  const peer = await startPeer('sdk1-stateful-json');
  try {
    await openLog(page);
    expect(await page.evaluate((url) => window.auditApi.connectGate(url), peer.url)).toContain(
      'run_with_credentials',
    );
    const outcome = await page.evaluate((args) => window.auditApi.call('run_with_credentials', args), ARGS);
    expect(outcome).toMatchObject({ ok: true });

    // The server received exactly what was approved, and the caller got the server's answer as it was.
    const received = (await peer.events()).calls.filter((call) => call.tool === 'run_with_credentials');
    expect(received).toEqual([{ tool: 'run_with_credentials', arguments: ARGS }]);
    const answer = JSON.stringify(outcome.ok ? outcome.result : undefined);
    for (const secret of SECRETS) expect(answer).toContain(secret);

    const stored = await page.evaluate(
      (id) => window.auditApi.stored(id),
      outcome.ok ? (outcome.invocationId as string) : '',
    );
    // Nowhere in the database (events, blocks, entries, index) nor in the export.
    for (const secret of SECRETS) {
      expect(stored.raw, secret).not.toContain(secret);
      expect(stored.exported, secret).not.toContain(secret);
    }
    // Marked: the stored arguments say what was there, and the entry lists where.
    const pending = stored.bodies[0] as { arguments: typeof ARGS };
    expect(pending.arguments).toEqual({
      auth_header: NAMED,
      bearer: NAMED,
      pass: NAMED,
      env: { GITHUB_PAT: NAMED, AWS_SECRET_ACCESS_KEY: NAMED, HOME: '/home/ada' },
      headers: [
        { name: 'Authorization', value: NAMED },
        { name: 'Accept', value: 'application/json' },
      ],
      cmd: "curl -H 'Authorization: Bearer [redacted: bearer token]' https://api.example.com/v1/models",
    });
    expect(stored.entry?.redactedPaths).toEqual(
      expect.arrayContaining([
        'auth_header',
        'bearer',
        'pass',
        'env.GITHUB_PAT',
        'env.AWS_SECRET_ACCESS_KEY',
        'headers[0].value',
        'cmd',
        // The server's echo: a JSON text inside the result, redacted as data.
        'result.content[0].text',
      ]),
    );
    expect(stored.entry?.argumentsPreview).toContain(NAMED);
    expect(stored.exported).toContain('[redacted: bearer token]');
  } finally {
    await peer.stop();
  }
});
