/**
 * A 2026-07-28 task waiting for input, answered on one page, then taken up by the page after a
 * reload: the keys answered travel with the task's handle (keys only, never the answers), so the
 * person is not asked again when the server still lists the key (its acknowledgement is eventually
 * consistent, as the extension's text allows). Two gates over one handle store stand for the page
 * before and after the reload; the servers are scripted (a test double) so that the key stays listed.
 */
import { describe, expect, it, vi } from 'vitest';
import { type Responder, ScriptedTransport } from '../../test/support/scripted-transport.js';
import { type ElicitationHandler, McpClient } from '../client/index.js';
import { type JsonObject, type JsonRpcRequest, RpcEngine, type Tool } from '../protocol/index.js';
import { createSchemaValidator } from '../schema/index.js';
import { programmaticApprover } from './approvers.js';
import { MemoryAuditSink } from './memory-audit.js';
import { createGate, type GateEvent } from './pipeline.js';
import { createPolicy } from './policy.js';
import { memorySettingsStore } from './settings-store.js';
import { memoryTaskHandles } from './task-handles.js';
import type { TaskHandleStore } from './types.js';

const askJob: Tool = { name: 'ask_job', inputSchema: { type: 'object' } };
const QUESTION = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Which topic?',
    requestedSchema: { type: 'object', properties: { topic: { type: 'string' } } },
  },
};
const task = (status: string, extra: JsonObject = {}): JsonObject => ({
  taskId: 'task-1',
  status,
  createdAt: '2026-07-28T00:00:00Z',
  lastUpdatedAt: '2026-07-28T00:00:00Z',
  ttlMs: 600_000,
  pollIntervalMs: 10,
  ...extra,
});
const waiting = () => task('input_required', { inputRequests: { topic: QUESTION } });

function page(responder: Responder, handles: TaskHandleStore, onElicit: ElicitationHandler) {
  const transport = new ScriptedTransport((request, peer) => {
    if (request.method === 'tools/list')
      return peer.reply(request, { tools: [askJob], resultType: 'complete' });
    return responder(request, peer);
  });
  const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
  const client = new McpClient(
    'srv',
    engine,
    { era: 'modern', protocolVersion: '2026-07-28', capabilities: { tools: {} } },
    { clientInfo: { name: 't', version: '1' }, capabilities: {}, timeoutMs: 5_000 },
    { onElicit },
  );
  const events: GateEvent[] = [];
  const gate = createGate({
    servers: new Map([['srv', client]]),
    policy: createPolicy({ store: memorySettingsStore() }),
    audit: new MemoryAuditSink(),
    validator: createSchemaValidator(),
    approver: programmaticApprover(async () => ({ action: 'allow', remember: 'once', decidedBy: 'test' })),
    taskHandles: handles,
    taskPolling: { floorMs: 1 },
  });
  gate.onEvent((event) => events.push(event));
  return { gate, transport, events };
}

describe('a task waiting for input, across a reload', () => {
  it('keeps the answered keys with the handle, so the reloaded page does not ask again', async () => {
    const answer = async () => ({ action: 'accept' as const, content: { topic: 'otters' } });
    // The page before the reload: the server keeps listing the key after the answer.
    const storeBefore = memoryTaskHandles();
    const before = page(
      (request, peer) => {
        if (request.method === 'tools/call')
          return peer.reply(request, { ...task('working'), resultType: 'task' });
        if (request.method === 'tasks/get')
          return peer.reply(request, { ...waiting(), resultType: 'complete' });
        peer.reply(request, { resultType: 'complete' });
      },
      storeBefore,
      vi.fn(answer),
    );
    void before.gate
      .call({ serverId: 'srv', toolName: 'ask_job', arguments: {}, caller: { kind: 'person' } })
      .catch(() => undefined);
    // Answered, and polled again after the answer (so whatever is kept for a reload is kept by now).
    const pollsAfterUpdate = () => {
      const sent = before.transport.sent.map((s) => s.message as JsonRpcRequest);
      const update = sent.findIndex((m) => m.method === 'tasks/update');
      return update < 0 ? 0 : sent.slice(update).filter((m) => m.method === 'tasks/get').length;
    };
    await vi.waitFor(() => expect(pollsAfterUpdate()).toBeGreaterThan(0));
    // The reload: what storage holds now is all the next page has; the old page is gone.
    const kept = memoryTaskHandles();
    const [handle] = await storeBefore.list();
    expect(handle).toBeDefined();
    if (handle) await kept.put(handle);
    expect(handle?.answeredKeys).toEqual(['topic']);
    expect(JSON.stringify(handle)).not.toContain('otters');
    await before.transport.close();

    let polls = 0;
    const askedAfter = vi.fn(answer);
    const after = page(
      (request, peer) => {
        if (request.method !== 'tasks/get') return peer.reply(request, { resultType: 'complete' });
        polls++;
        const state =
          polls < 3
            ? waiting()
            : task('completed', { result: { content: [{ type: 'text', text: 'researched otters' }] } });
        peer.reply(request, { ...state, resultType: 'complete' });
      },
      kept,
      askedAfter,
    );
    expect(await after.gate.resumeTasks('srv')).toBe(1);
    await vi.waitFor(() => expect(after.events.some((e) => e.type === 'finished')).toBe(true));
    expect(askedAfter).not.toHaveBeenCalled();
    expect(after.transport.sentWith('tasks/update')).toHaveLength(0);
    expect(polls).toBeGreaterThanOrEqual(3);
  });
});
