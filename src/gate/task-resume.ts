/**
 * Calls that run as tasks, taken up again after a reload (or a new service worker): every kept
 * handle of a server that is connected now is followed to its end, in the same audit entry, with
 * no new approval (the person approved the call once). Loaded by `gate.resumeTasks()` only.
 */

import { checkToolOutput } from '../schema/index.js';
import type { CallContext, GateRuntime } from './call-context.js';
import type { GateResult } from './pipeline.js';
import { recordFinished, recordSendFailure } from './send-step.js';
import { outcomeOfResult } from './steps.js';
import { taskTrail } from './task-step.js';
import type { TaskHandleRecord } from './types.js';

/** Tasks followed right now, by invocation id, with their cancel: a second resume skips them. */
const following = new WeakMap<GateRuntime, Map<string, AbortController>>();

/** The person pressed Cancel on a resumed task: the follower sends `tasks/cancel` and ends it. */
export function cancelResumed(gate: GateRuntime, invocationId: string): void {
  following.get(gate)?.get(invocationId)?.abort('Cancelled in the Toolgate panel');
}

export async function resumeTasks(gate: GateRuntime, serverId: string): Promise<number> {
  const store = gate.options.taskHandles;
  const client = gate.options.servers.get(serverId);
  if (!store || !client) return 0;
  const running = following.get(gate) ?? new Map<string, AbortController>();
  following.set(gate, running);
  const handles = (await store.list()).filter(
    (handle) => handle.serverId === serverId && !running.has(handle.invocationId),
  );
  for (const handle of handles) {
    const controller = new AbortController();
    running.set(handle.invocationId, controller);
    void resumeOne(gate, handle, controller.signal).finally(() => running.delete(handle.invocationId));
  }
  return handles.length;
}

async function resumeOne(gate: GateRuntime, handle: TaskHandleRecord, signal: AbortSignal): Promise<void> {
  const { invocationId, serverId, toolName, sentAt } = handle;
  // The call's context as the final records need it: who and what, already sent.
  const call: CallContext = {
    gate,
    invocationId,
    request: { serverId, toolName, arguments: {}, caller: { kind: 'person' } },
    proposed: {},
    requestedAt: sentAt,
    warnings: [],
    sent: true,
  };
  const trail = taskTrail(call, handle, handle);
  const client = gate.options.servers.get(serverId);
  try {
    if (!client) throw new Error(`${serverId} is not connected`);
    const result = await client.resumeTask(handle, {
      signal,
      task: trail.observer,
      taskPolling: gate.options.taskPolling,
    });
    await trail.end();
    const entry = (await client.listCatalog()).entries.find((e) => e.tool.name === toolName);
    const outputValidation = entry
      ? await checkToolOutput(entry.tool, result, gate.options.validator)
      : undefined;
    await recordFinished(call, sentAt, {
      outcome: outcomeOfResult(result, outputValidation),
      result,
      ...(outputValidation ? { outputValidation } : {}),
    });
    const finished: GateResult = {
      invocationId,
      serverId,
      toolName,
      result,
      ...(outputValidation ? { outputValidation } : {}),
      arguments: {},
      timings: { sentAt, receivedAt: gate.now() },
      decision: {
        verdict: 'allow',
        source: { kind: 'default', reason: 'resumed-task' },
        reason: 'approved before the page reloaded; the task was followed again to its end',
      },
      warnings: call.warnings,
    };
    gate.emit({ type: 'finished', invocationId, result: finished });
  } catch (error) {
    await trail.end();
    await recordSendFailure(call, sentAt, error);
    gate.emit({
      type: 'failed',
      invocationId,
      error: error instanceof Error ? error : new Error(String(error)),
    });
  }
}
