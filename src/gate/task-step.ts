/**
 * A call that the server runs as a task, on record as it goes: the task id before the first poll
 * (with its handle kept for a reload), then every change of status with the server's message, all
 * in the call's one audit entry. The final record follows only once these are written.
 */

import type { TaskObserver } from '../client/index.js';
import type { TaskSnapshot } from '../protocol/index.js';
import { type CallContext, reportAuditFailure } from './call-context.js';
import type { TaskHandleRecord } from './types.js';

interface TaskTrail {
  observer: TaskObserver;
  /** Waits for the task records (call before the final one), and forgets the kept handle. */
  end(): Promise<void>;
}

/**
 * The observer the send step gives the client. `resumed` holds the handle of a task taken up after
 * a reload (its id is on record already); otherwise the handle is made when the server creates it.
 */
export function taskTrail(
  call: CallContext,
  handle: Omit<TaskHandleRecord, 'taskId' | 'since'>,
  resumed?: TaskHandleRecord,
): TaskTrail {
  const { gate, invocationId } = call;
  const { serverId, toolName } = handle;
  let kept: TaskHandleRecord | undefined = resumed;
  let last: TaskSnapshot | undefined;
  let recorded = '';
  let writes: Promise<void> = Promise.resolve();

  const record = (task: TaskSnapshot): Promise<void> => {
    const key = `${task.status}\u0000${task.statusMessage ?? ''}`;
    if (key === recorded) return writes;
    recorded = key;
    const sink = gate.options.audit;
    writes = writes.then(async () => {
      try {
        await sink.task?.({
          invocationId,
          taskId: task.taskId,
          status: task.status,
          ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
          at: gate.now(),
        });
      } catch (error) {
        reportAuditFailure(call, 'task', error);
      }
    });
    return writes;
  };
  const tell = (task: TaskSnapshot, nextPollAt?: number) =>
    gate.emit({
      type: 'task',
      invocationId,
      serverId,
      toolName,
      taskId: task.taskId,
      status: task.status,
      ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
      ...(nextPollAt !== undefined ? { nextPollAt } : {}),
      ...(resumed ? { resumed: true } : {}),
    });

  return {
    observer: {
      async onTaskCreated(task) {
        last = task;
        kept = { ...handle, taskId: task.taskId, since: gate.now() };
        // The task id is on record (and its handle kept) before the first poll: a reload from
        // here on finds it. A store that fails costs the resume, not the call: a warning.
        await record(task);
        try {
          await gate.options.taskHandles?.put(kept);
        } catch (error) {
          call.warnings.push(
            `Toolgate could not keep task ${task.taskId} for a reload: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        tell(task);
      },
      onTaskStatus(task) {
        last = task;
        void record(task);
        tell(task);
      },
      onNextPoll(at) {
        if (last) tell(last, at);
      },
      async onInputAnswered(keys) {
        if (!kept) return;
        // Keys only: the answers themselves may hold what the person typed, and never reach storage.
        kept = { ...kept, answeredKeys: [...keys] };
        await gate.options.taskHandles?.put(kept).catch(() => undefined);
      },
    },
    async end() {
      await writes;
      if (kept) await gate.options.taskHandles?.delete(kept.invocationId).catch(() => undefined);
    },
  };
}
