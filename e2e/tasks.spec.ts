/**
 * Calls that run as tasks, in Chromium, in both eras:
 * - 2026-07-28: e2e/peers/tasks-modern.mjs, our own server written from the tasks extension's text
 *   (io.modelcontextprotocol/tasks): no official server implements the extension yet;
 * - 2025-11-25: @modelcontextprotocol/server-everything (SDK 1.x experimental tasks), whose
 *   `simulate-research-query` has `taskSupport: "required"`.
 * A task survives a reload and completes in the log; Cancel reaches the server as tasks/cancel; an
 * input_required question is asked once and answered once; polls keep to pollIntervalMs; a task
 * that never finishes ends at its time to live; a required-task tool works.
 */
import { expect, type Page, test } from '@playwright/test';
import { untilArmed } from './support/dialogs.js';
import { type Peer, startPeer } from './support/peers.js';
import { openWidget } from './support/widget-page.js';

test.use({ permissions: ['local-network-access'] });
test.describe.configure({ mode: 'serial' });

let modern: Peer;
let everything: Peer;
test.beforeAll(async () => {
  [modern, everything] = await Promise.all([startPeer('tasks-modern'), startPeer('everything-streamable')]);
});
test.afterAll(async () => {
  await Promise.all([modern?.stop(), everything?.stop()]);
});

/** Starts a call from the page's host side (the person's panel) and allows it in the dialog. */
async function startAndAllow(page: Page, serverId: string, toolName: string, args: object): Promise<void> {
  await page.evaluate(
    ({ serverId, toolName, args }) => {
      const w = window as unknown as { toolgate: { call(r: object): Promise<unknown> }; done?: unknown };
      void w.toolgate.call({ serverId, toolName, arguments: args }).then(
        (r) => (w.done = r),
        (e: Error) => (w.done = { error: e.message }),
      );
    },
    { serverId, toolName, args },
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
}

/** The audit log's entries of a tool, newest first, and the log's verification, read in the page. */
function auditOf(page: Page, toolName: string) {
  return page.evaluate(async (toolName) => {
    const w = window as unknown as {
      toolgate: {
        ready: Promise<{
          auditLog: {
            query(q: object): Promise<{ entries: Record<string, unknown>[] }>;
            verify(): Promise<{ ok: boolean }>;
            exportBlob(format: string): Promise<Blob>;
          };
        }>;
      };
    };
    const { auditLog } = await w.toolgate.ready;
    const { entries } = await auditLog.query({ toolName });
    const exported = await (await auditLog.exportBlob('ndjson')).text();
    return { entries, verified: (await auditLog.verify()).ok, exported };
  }, toolName);
}

test('a 2026-07-28 task survives a reload: taken up again, completed in Activity and in the log', async ({
  page,
}) => {
  await openWidget(page, [{ url: modern.url, id: 'tasks' }]);
  await startAndAllow(page, 'tasks', 'long_job', { seconds: 5, pollIntervalMs: 300 });
  await page.getByRole('tab', { name: 'Activity' }).click();
  const running = page.locator('.tg-running-call', { hasText: 'long_job' });
  await expect(running.locator('.tg-task-status')).toContainText('working');
  await expect(running).toContainText('running as a task');
  await expect(running.locator('.tg-task-status')).toContainText('next check in');
  // On record before the reload: one entry, running as a task, with its id.
  await expect.poll(async () => (await auditOf(page, 'long_job')).entries[0]?.task).toBeTruthy();
  const before = (await auditOf(page, 'long_job')).entries[0] as { invocationId: string; outcome: string };
  expect(before.outcome).toBe('pending');

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  await page.getByRole('tab', { name: 'Activity' }).click();
  // Taken up again by the new page, then finished with the server's result.
  const finished = page.locator(`.tg-finished-call[data-invocation="${before.invocationId}"]`);
  await expect(finished).toContainText('done after 5s', { timeout: 30_000 });
  await expect(finished).toContainText('success');

  const { entries, verified, exported } = await auditOf(page, 'long_job');
  const entry = entries.find((e) => e.invocationId === before.invocationId) as {
    outcome: string;
    task: { id: string; status: string };
    resultSummary?: string;
  };
  expect(entry.outcome).toBe('success');
  expect(entry.task.status).toBe('completed');
  expect(entry.resultSummary).toContain('done after 5s');
  expect(verified).toBe(true);
  expect(exported).toContain('"kind":"task"');
  // The server saw polls from both pages and one tools/call.
  const seen = (await modern.events()).tasks?.[entry.task.id];
  expect(seen?.tool).toBe('long_job');
  expect((await modern.events()).calls.filter((c) => c.tool === 'long_job')).toHaveLength(1);
});

test('Cancel in Activity reaches the server as tasks/cancel and ends the entry as cancelled', async ({
  page,
}) => {
  await openWidget(page, [{ url: modern.url, id: 'tasks' }]);
  await startAndAllow(page, 'tasks', 'long_job', { seconds: 120, pollIntervalMs: 300 });
  await page.getByRole('tab', { name: 'Activity' }).click();
  const running = page.locator('.tg-running-call', { hasText: 'long_job' });
  await expect(running.locator('.tg-task-status')).toContainText('working');
  const taskId = await running.locator('.tg-task-status').getAttribute('data-task');
  await running.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(async () => (await modern.events()).tasks?.[taskId ?? '']?.cancels).toBe(1);
  await expect.poll(async () => (await auditOf(page, 'long_job')).entries[0]?.outcome).toBe('cancelled');
});

test('an input_required question of a task is asked once, naming the task, and answered once', async ({
  page,
}) => {
  await openWidget(page, [{ url: modern.url, id: 'tasks' }]);
  await startAndAllow(page, 'tasks', 'ask_job', { pollIntervalMs: 250 });
  const form = page.getByRole('dialog', { name: /asks for input/ });
  await expect(form).toContainText('Which topic should the research cover?');
  const taskId = await form.locator('.tg-task-id').textContent();
  expect(taskId).toBeTruthy();
  await form.getByRole('textbox').fill('otters');
  // A new dialog takes no acting keys for a moment (dialog-arming): wait for it, never for a time.
  await untilArmed(form);
  await form.getByRole('textbox').press('Enter');
  await expect(form).toHaveCount(0);
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.locator('.tg-finished-call', { hasText: 'ask_job' })).toContainText('researched otters', {
    timeout: 20_000,
  });
  const seen = (await modern.events()).tasks?.[taskId ?? ''];
  // The peer kept listing the answered key on later polls; the person was asked once.
  expect(seen?.asked.topic).toBeGreaterThanOrEqual(2);
  expect(seen?.updates).toHaveLength(1);
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('polls keep to pollIntervalMs, and a task that never finishes ends at its time to live, in the log', async ({
  page,
}) => {
  await openWidget(page, [{ url: modern.url, id: 'tasks' }]);
  await startAndAllow(page, 'tasks', 'endless_job', { ttlMs: 2500 });
  await page.getByRole('tab', { name: 'Activity' }).click();
  const ended = page.locator('.tg-finished-call', { hasText: 'endless_job' });
  await expect(ended).toContainText('time to live', { timeout: 20_000 });
  const entry = (await auditOf(page, 'endless_job')).entries[0] as {
    outcome: string;
    error?: { kind: string };
    task?: { id: string };
  };
  expect(entry.outcome).toBe('timed-out');
  expect(entry.error?.kind).toBe('task-expired');
  // The peer suggests 500 ms between polls: the server saw none closer than that (timer slack aside).
  const polls = (await modern.events()).tasks?.[entry.task?.id ?? '']?.polls ?? [];
  expect(polls.length).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < polls.length; i++)
    expect((polls[i] as number) - (polls[i - 1] as number)).toBeGreaterThanOrEqual(480);
});

test('2025-11-25: a taskSupport "required" tool of server-everything runs as a task to its result', async ({
  page,
}) => {
  await openWidget(page, [{ url: everything.url, id: 'everything' }]);
  await startAndAllow(page, 'everything', 'simulate-research-query', { topic: 'otters' });
  await page.getByRole('tab', { name: 'Activity' }).click();
  const running = page.locator('.tg-running-call', { hasText: 'simulate-research-query' });
  await expect(running.locator('.tg-task-status')).toContainText(/Gathering sources|Analyzing|Synthesizing/);
  const finished = page.locator('.tg-finished-call', { hasText: 'simulate-research-query' });
  await expect(finished).toContainText('Research Report: otters', { timeout: 30_000 });
  // The caller's call() resolved with the final result, not with the task handle.
  const resolved = await page.evaluate(
    () => (window as unknown as { done?: { result?: { content?: { text?: string }[] } } }).done,
  );
  expect(resolved?.result?.content?.[0]?.text).toContain('Research Report: otters');
  const { entries, verified } = await auditOf(page, 'simulate-research-query');
  const entry = entries[0] as { outcome: string; task?: { status: string } };
  expect(entry.outcome).toBe('success');
  expect(entry.task?.status).toBe('completed');
  expect(verified).toBe(true);
});
