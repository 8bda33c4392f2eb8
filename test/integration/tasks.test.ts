/**
 * Tools that run as tasks, against real servers in both eras:
 * - 2025-11-25 (core tasks): @modelcontextprotocol/server-everything, whose `simulate-research-query`
 *   has `taskSupport: "required"` and asks a question mid-task (SDK 1.x experimental tasks);
 * - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension): e2e/peers/tasks-modern.mjs, written
 *   by hand from the extension's text, because no official server implements it yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { connect, type McpClient } from '../../src/index.js';
import {
  McpError,
  RequestCancelledError,
  TaskEndedError,
  type TaskSnapshot,
} from '../../src/protocol/index.js';
import { eventually, firstText } from './peer-cases.js';

describe('2026-07-28 tasks extension (our peer: no official server implements it)', () => {
  let peer: Peer;
  let client: McpClient;
  const questions: { message: string; taskId?: string | undefined }[] = [];

  beforeAll(async () => {
    peer = await startPeer('tasks-modern');
    client = await connect({
      url: peer.url,
      onElicit: async (request, context) => {
        questions.push({ message: request.message, taskId: context.taskId });
        return { action: 'accept', content: { topic: 'otters' } };
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  const tasksSeen = async () => (await peer.events()).tasks ?? {};

  it('follows a task to its result, reporting each status and polling no faster than pollIntervalMs', async () => {
    const statuses: string[] = [];
    let created: TaskSnapshot | undefined;
    const result = await client.callTool(
      'long_job',
      { seconds: 1.5, pollIntervalMs: 300 },
      {
        task: {
          onTaskCreated: (task) => {
            created = task;
          },
          onTaskStatus: (task) => statuses.push(`${task.status}: ${task.statusMessage ?? ''}`),
        },
      },
    );
    expect(firstText(result)).toBe('done after 1.5s');
    expect(created?.status).toBe('working');
    expect(statuses).toEqual(['working: Started', 'working: Halfway there', 'completed: Finished']);
    const seen = (await tasksSeen())[created?.taskId ?? ''];
    expect(seen?.polls.length).toBeGreaterThanOrEqual(2);
    const gaps = (seen?.polls ?? []).slice(1).map((at, i) => at - (seen?.polls[i] ?? 0));
    // The client waits at least pollIntervalMs between polls (a few ms of timer slack allowed).
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(290);
    // Every task request is routed by its task id (Mcp-Name) and declares the extension.
    const gets = (await peer.events()).messages.filter((m) => m.method === 'tasks/get');
    expect(gets.length).toBeGreaterThan(0);
    for (const get of gets) expect(get.headers['mcp-name']).toBeDefined();
  });

  it('asks an input_required question once across polls and answers it with tasks/update', async () => {
    questions.length = 0;
    let taskId = '';
    const result = await client.callTool(
      'ask_job',
      { pollIntervalMs: 250 },
      {
        task: {
          onTaskCreated: (task) => {
            taskId = task.taskId;
          },
        },
      },
    );
    expect(firstText(result)).toBe('researched otters');
    expect(questions).toEqual([{ message: 'Which topic should the research cover?', taskId }]);
    const seen = (await tasksSeen())[taskId];
    expect(seen?.updates).toEqual([{ topic: { action: 'accept', content: { topic: 'otters' } } }]);
    // The peer acknowledges lazily: later polls still listed the answered key, and it was not asked again.
    expect(seen?.asked.topic).toBeGreaterThanOrEqual(2);
  });

  it('cancels the task at the server when the caller aborts', async () => {
    const controller = new AbortController();
    let taskId = '';
    const call = client.callTool(
      'long_job',
      { seconds: 60, pollIntervalMs: 250 },
      {
        signal: controller.signal,
        task: {
          onTaskCreated: (task) => {
            taskId = task.taskId;
          },
          onTaskStatus: () => controller.abort('the person pressed Cancel'),
        },
      },
    );
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    await eventually('tasks/cancel at the peer', async () => (await tasksSeen())[taskId]?.cancels === 1);
  });

  it('ends a task that never finishes at its time to live', async () => {
    const call = client.callTool('endless_job', { ttlMs: 1200 }, { taskPolling: { floorMs: 100 } });
    await expect(call).rejects.toSatisfy(
      (error: unknown) => error instanceof TaskEndedError && error.reason === 'expired',
    );
  });

  it('fails as the task failed: the JSON-RPC error it carries', async () => {
    await expect(client.callTool('failing_job', {})).rejects.toSatisfy(
      (error: unknown) => error instanceof McpError && error.code === -32603,
    );
  });

  it('resumes a task on a new connection from what was kept of it, and ends an unknown one as such', async () => {
    let taskId = '';
    const first = client.callTool(
      'long_job',
      { seconds: 1.2, pollIntervalMs: 200 },
      {
        task: {
          onTaskCreated: (task) => {
            taskId = task.taskId;
          },
        },
      },
    );
    await eventually('the task handle', () => taskId !== '');
    const second = await connect({ url: peer.url });
    try {
      const resumed = await second.resumeTask({ taskId, toolName: 'long_job', since: Date.now() });
      expect(firstText(resumed)).toBe('done after 1.2s');
      await first;
      await expect(
        second.resumeTask({ taskId: 'no-such-task', toolName: 'long_job', since: Date.now() }),
      ).rejects.toSatisfy((error: unknown) => error instanceof TaskEndedError && error.reason === 'unknown');
    } finally {
      await second.close();
    }
  });
});

describe('2025-11-25 core tasks: server-everything (SDK 1.x experimental tasks)', () => {
  let peer: Peer;
  let client: McpClient;
  const questions: { message: string; taskId?: string | undefined }[] = [];

  beforeAll(async () => {
    peer = await startPeer('everything-streamable');
    client = await connect({
      url: peer.url,
      onElicit: async (request, context) => {
        questions.push({ message: request.message, taskId: context.taskId });
        return { action: 'accept', content: { interpretation: 'historical' } };
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  it('runs a tool whose taskSupport is required as a task, to its result', async () => {
    const statuses: string[] = [];
    const result = await client.callTool(
      'simulate-research-query',
      { topic: 'otters' },
      { task: { onTaskStatus: (task) => statuses.push(task.status) } },
    );
    expect(firstText(result)).toContain('# Research Report: otters');
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
  });

  it('answers its mid-task question once, through tasks/result, in a dialog naming the task', async () => {
    questions.length = 0;
    let taskId = '';
    const result = await client.callTool(
      'simulate-research-query',
      { topic: 'otters', ambiguous: true },
      {
        task: {
          onTaskCreated: (task) => {
            taskId = task.taskId;
          },
        },
      },
    );
    expect(firstText(result)).toContain('otters (historical)');
    expect(questions).toHaveLength(1);
    expect(questions[0]?.taskId).toBe(taskId);
  });

  it('cancels with tasks/cancel and lists the tasks the server keeps', async () => {
    const controller = new AbortController();
    let taskId = '';
    const call = client.callTool(
      'simulate-research-query',
      { topic: 'beavers' },
      {
        signal: controller.signal,
        task: {
          onTaskCreated: (task) => {
            taskId = task.taskId;
          },
          onTaskStatus: () => controller.abort('stop'),
        },
      },
    );
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    const { tasks } = await client.listTasks();
    expect(tasks.find((task) => task.taskId === taskId)?.status).toBe('cancelled');
  });
});
