/**
 * The gate in front of calls that run as tasks, against real servers: our 2026-07-28 tasks peer (no
 * official server implements the extension) and server-everything (2025-11-25 core tasks). One
 * approval, one audit entry with the task id and every status change, then the final record; a
 * handle kept while it runs (and only then), and a task followed again from its handle alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate, type Gate, type GateEvent } from '../../src/gate/pipeline.js';
import { createPolicy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import { memoryTaskHandles } from '../../src/gate/task-handles.js';
import type { TaskHandleStore } from '../../src/gate/types.js';
import { connect, type McpClient } from '../../src/index.js';
import { createSchemaValidator } from '../../src/schema/index.js';
import { eventually, firstText } from './peer-cases.js';

const caller = { kind: 'host' as const, label: 'integration test' };

function gateFor(serverId: string, client: McpClient, taskHandles: TaskHandleStore) {
  const audit = new MemoryAuditSink();
  let approvals = 0;
  const events: GateEvent[] = [];
  const gate: Gate = createGate({
    servers: new Map([[serverId, client]]),
    policy: createPolicy({ store: memorySettingsStore() }),
    audit,
    validator: createSchemaValidator(),
    taskHandles,
    approver: programmaticApprover(() => {
      approvals++;
      return { action: 'allow', remember: 'once', decidedBy: 'integration test' };
    }),
  });
  gate.onEvent((event) => events.push(event));
  return { gate, audit, events, approvals: () => approvals };
}

describe('the gate and a 2026-07-28 task (our peer)', () => {
  let peer: Peer;
  let client: McpClient;

  beforeAll(async () => {
    peer = await startPeer('tasks-modern');
    client = await connect({ url: peer.url, id: 'tasks' });
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  it('approves once and records the task id, each status and the result in one entry', async () => {
    const handles = memoryTaskHandles();
    const { gate, audit, events, approvals } = gateFor('tasks', client, handles);
    let keptWhileRunning = 0;
    const stop = gate.onEvent((event) => {
      if (event.type === 'task' && event.status === 'working')
        void handles.list().then((list) => {
          keptWhileRunning = Math.max(keptWhileRunning, list.length);
        });
    });
    const outcome = await gate.call({
      serverId: 'tasks',
      toolName: 'long_job',
      arguments: { seconds: 1, pollIntervalMs: 200 },
      caller,
    });
    stop();
    expect(firstText(outcome.result)).toBe('done after 1s');
    expect(approvals()).toBe(1);
    const entry = audit.get(outcome.invocationId);
    expect(entry?.pending).toBeDefined();
    expect(entry?.tasks.map((t) => [t.status, t.statusMessage])).toEqual([
      ['working', 'Started'],
      ['working', 'Halfway there'],
      ['completed', 'Finished'],
    ]);
    const taskId = entry?.tasks[0]?.taskId;
    expect(taskId).toBeTruthy();
    expect(entry?.tasks.every((t) => t.taskId === taskId)).toBe(true);
    expect(entry?.final?.outcome).toBe('success');
    // The handle lived while the task ran, and is gone once it ended.
    expect(keptWhileRunning).toBe(1);
    expect(await handles.list()).toEqual([]);
    expect(events.some((e) => e.type === 'task' && e.nextPollAt !== undefined)).toBe(true);
  });

  it('ends a task that outlives its time to live as timed out, saying so', async () => {
    const { gate, audit } = gateFor('tasks', client, memoryTaskHandles());
    let invocationId = '';
    gate.onEvent((event) => {
      if (event.type === 'requested') invocationId = event.invocationId;
    });
    await expect(
      gate.call({ serverId: 'tasks', toolName: 'endless_job', arguments: { ttlMs: 800 }, caller }),
    ).rejects.toThrow(/time to live/);
    const final = audit.get(invocationId)?.final;
    expect(final?.outcome).toBe('timed-out');
    expect(final?.error?.kind).toBe('task-expired');
  });

  it('follows a kept task again from its handle alone, to its final record, without asking again', async () => {
    // A task started by a page that then went away: only its handle is left (as after a reload).
    let taskId = '';
    const started = client.callTool(
      'long_job',
      { seconds: 1, pollIntervalMs: 200 },
      {
        task: {
          onTaskCreated: (task) => {
            taskId = task.taskId;
          },
        },
      },
    );
    await eventually('the task handle', () => taskId !== '');
    const handles = memoryTaskHandles();
    const now = Date.now();
    await handles.put({
      invocationId: 'inv-before-reload',
      serverId: 'tasks',
      toolName: 'long_job',
      taskId,
      since: now,
      sentAt: now,
      definitionHash: 'sha256:x',
    });
    await handles.put({
      invocationId: 'inv-unknown',
      serverId: 'tasks',
      toolName: 'long_job',
      taskId: 'forgotten-by-the-server',
      since: now,
      sentAt: now,
      definitionHash: 'sha256:x',
    });
    const { gate, audit, events, approvals } = gateFor('tasks', client, handles);
    expect(await gate.resumeTasks('tasks')).toBe(2);
    await eventually('both resumed tasks ended', () =>
      ['inv-before-reload', 'inv-unknown'].every((id) => audit.get(id)?.final !== undefined),
    );
    await started;
    expect(audit.get('inv-before-reload')?.final?.outcome).toBe('success');
    expect(audit.get('inv-before-reload')?.tasks.at(-1)?.status).toBe('completed');
    expect(audit.get('inv-unknown')?.final?.error?.kind).toBe('task-unknown');
    expect(approvals()).toBe(0);
    expect(events.some((e) => e.type === 'task' && e.resumed === true)).toBe(true);
    expect(await handles.list()).toEqual([]);
  });
});

describe('the gate and a 2025-11-25 task (server-everything)', () => {
  let peer: Peer;
  let client: McpClient;

  beforeAll(async () => {
    peer = await startPeer('everything-streamable');
    client = await connect({ url: peer.url, id: 'everything' });
  });
  afterAll(async () => {
    await client?.close();
    await peer?.stop();
  });

  it('runs a taskSupport: required tool through the gate with its statuses on record', async () => {
    const { gate, audit } = gateFor('everything', client, memoryTaskHandles());
    const outcome = await gate.call({
      serverId: 'everything',
      toolName: 'simulate-research-query',
      arguments: { topic: 'otters' },
      caller,
    });
    expect(firstText(outcome.result)).toContain('Research Report: otters');
    const tasks = audit.get(outcome.invocationId)?.tasks ?? [];
    expect(tasks[0]?.status).toBe('working');
    expect(tasks.some((t) => t.statusMessage?.startsWith('Gathering sources'))).toBe(true);
    expect(audit.get(outcome.invocationId)?.final?.outcome).toBe('success');
  });
});
