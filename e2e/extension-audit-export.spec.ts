/**
 * The shipped extension and the auditCollector policy: Chrome accepts the managed schema with it
 * (the extension loads and its worker runs), and the worker reads the policy through managed
 * storage at start. Playwright cannot set an enterprise policy, so here the policy is unset and the
 * worker says so in its diagnostics; the export it starts once a policy is set is tested in a
 * worker against the real receiver (e2e/otlp-deploy.spec.ts) and the parsing in
 * extension/audit-export.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { EXTENSION_DIR, launchWithExtension } from './support/extension.js';

test('the worker reads the auditCollector policy at start; none set, nothing is exported', async () => {
  const extension = await launchWithExtension();
  try {
    const schema = JSON.parse(await readFile(join(EXTENSION_DIR, 'managed-schema.json'), 'utf8'));
    expect(Object.keys(schema.properties.auditCollector.properties)).toEqual([
      'url',
      'headers',
      'serviceName',
    ]);
    const worker = await extension.serviceWorker();
    // The worker answers once its controller and audit log are up: slow on a busy machine.
    await expect
      .poll(
        () =>
          worker.evaluate(() =>
            (globalThis as unknown as { toolgateDiagnostics: () => Promise<{ auditExport: string }> })
              .toolgateDiagnostics()
              .then((diagnostics) => diagnostics.auditExport),
          ),
        { timeout: 30_000 },
      )
      .toBe('no auditCollector policy: the audit log is not exported');
  } finally {
    await extension.close();
  }
});
