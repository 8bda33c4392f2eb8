/**
 * A task started from the extension's side panel outlives the panel and the service worker: the
 * person starts a long call (it runs as a task on e2e/peers/tasks-modern.mjs, our 2026-07-28 server
 * written from the tasks extension's text: no official server implements it yet), closes the panel,
 * Chrome stops the idle worker, and when the person opens the panel again the new worker has taken
 * the task up from IndexedDB and finished it in Activity and in the audit log.
 */
import { expect, test } from '@playwright/test';
import { type LoadedExtension, launchWithExtension } from './support/extension.js';
import { type Peer, startPeer } from './support/peers.js';
import { startPanelCall } from './support/side-panel.js';
import { fillServerUrl } from './support/widget-page.js';

let modern: Peer;
let extension: LoadedExtension;
test.beforeAll(async () => {
  [modern, extension] = await Promise.all([startPeer('tasks-modern'), launchWithExtension()]);
});
test.afterAll(async () => {
  await Promise.all([modern?.stop(), extension?.close()]);
});

test('a task started in the side panel finishes after the panel closes and the worker stops', async () => {
  let panel = await extension.openPanel();
  await fillServerUrl(panel, modern.url);
  await panel.getByRole('button', { name: 'Add server' }).click();
  await expect(panel.locator('.tg-server', { hasText: 'connected' })).toHaveCount(1, { timeout: 20_000 });

  await startPanelCall(panel, 'long_job', { fill: { 'seconds (required)': '8', pollIntervalMs: '300' } });
  await panel.getByRole('tab', { name: /Activity/ }).click();
  const running = panel.locator('.tg-running-call', { hasText: 'long_job' });
  await expect(running).toContainText('running as a task', { timeout: 20_000 });
  const taskId = await running.locator('.tg-task-status').getAttribute('data-task');
  expect(taskId).toBeTruthy();

  // The person closes the panel; Chrome stops the idle worker, and its polling with it.
  await panel.close();
  const watch = await extension.watchWorker();
  await watch.stop();
  expect(watch.status()).toBe('stopped');
  const pollsWhileStopped = (await modern.events()).tasks?.[taskId ?? '']?.polls.length ?? 0;
  await watch.close();

  // Opened again: a new worker, which resumes the task and finishes it in the same entry.
  panel = await extension.openPanel();
  await panel.getByRole('tab', { name: /Activity/ }).click();
  const finished = panel.locator('.tg-finished-call', { hasText: 'long_job' });
  await expect(finished).toContainText('done after 8s', { timeout: 30_000 });
  await panel.getByRole('tab', { name: 'Audit log' }).click();
  const row = panel.locator('.tg-log-table tbody tr', { hasText: 'long_job' });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-outcome', 'success');

  const events = await modern.events();
  // One tools/call in all; the new worker polled the same task.
  expect(events.calls.filter((c: { tool: string }) => c.tool === 'long_job')).toHaveLength(1);
  expect(events.tasks?.[taskId ?? '']?.polls.length).toBeGreaterThan(pollsWhileStopped);
});
