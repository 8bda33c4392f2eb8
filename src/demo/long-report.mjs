// The demo's long-running tool: `long_report` runs as a task (2025-11-25 core tasks, the official
// SDK 1.x's experimental support), a few seconds of stages with a status message each, so a person
// can start it, reload the page, and find it finished in Activity and in the audit log.
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { z } from 'zod';

const STAGES = ['Collecting figures', 'Checking sums', 'Drawing charts', 'Writing the summary'];
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * One store for every session of the endpoint. The SDK binds a task to the session that created it;
 * a reloaded page opens a new session and must still find its task, so tasks are stored unbound.
 * Task ids are 128 random bits, and the demo server listens on 127.0.0.1 only.
 */
export class SharedTaskStore extends InMemoryTaskStore {
  createTask(taskParams, requestId, request) {
    return super.createTask(taskParams, requestId, request, undefined);
  }
}

/** The server options that give an SDK 1.x McpServer core tasks on tools/call, over `taskStore`. */
export function taskServerOptions(taskStore) {
  return {
    capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    taskStore,
  };
}

/** Registers `long_report` (taskSupport "required") on an McpServer made with taskServerOptions. */
export function registerLongReport(server, taskStore) {
  server.experimental.tasks.registerToolTask(
    'long_report',
    {
      title: 'Long report (runs as a task)',
      description:
        'Writes a made-up report in stages, a few seconds each, as a task: reload the page meanwhile and find it finished in Activity.',
      inputSchema: {
        topic: z.string().default('sales').describe('What the report is about'),
        seconds: z.number().int().min(1).max(600).default(8).describe('How long it takes'),
      },
      execution: { taskSupport: 'required' },
      annotations: { readOnlyHint: true },
    },
    {
      createTask: async ({ topic, seconds }, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 30 * 60_000, pollInterval: 500 });
        void writeReport(task.taskId, topic, seconds, extra.taskStore, taskStore).catch((error) =>
          console.error(`long_report ${task.taskId} failed:`, error),
        );
        return { task };
      },
      getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
}

/**
 * The task's work. Status goes through the request's store (which also notifies the session), and
 * on to the shared store when that session is gone (a reloaded page): the work outlives the page.
 */
async function writeReport(taskId, topic, seconds, requestStore, sharedStore) {
  const update = (status, message) =>
    requestStore.updateTaskStatus(taskId, status, message).catch(async () => {
      const task = await sharedStore.getTask(taskId);
      if (task && !TERMINAL.has(task.status)) await sharedStore.updateTaskStatus(taskId, status, message);
    });
  const stageMs = (seconds * 1000) / STAGES.length;
  for (const [index, stage] of STAGES.entries()) {
    const task = await sharedStore.getTask(taskId);
    if (!task || TERMINAL.has(task.status)) return; // cancelled (tasks/cancel) or expired
    await update('working', `${stage} (${index + 1} of ${STAGES.length})…`);
    await new Promise((resolve) => setTimeout(resolve, stageMs));
  }
  const task = await sharedStore.getTask(taskId);
  if (!task || TERMINAL.has(task.status)) return;
  const result = {
    content: [
      { type: 'text', text: `Report on ${topic}: ready after ${seconds}s, ${STAGES.length} stages.` },
    ],
  };
  await requestStore.storeTaskResult(taskId, 'completed', result).catch(async () => {
    // Stored already when only the notification to a closed session failed.
    const stored = await sharedStore.getTask(taskId);
    if (stored && !TERMINAL.has(stored.status))
      await sharedStore.storeTaskResult(taskId, 'completed', result);
  });
}
