/**
 * Where the handles of calls running as tasks are kept: IndexedDB (database `toolgate-tasks`, beside
 * the audit log, shared by every page and worker of the origin) or memory. A handle holds ids and
 * times only (TaskHandleRecord), and the keys of questions answered: no arguments, answers, results or
 * credentials.
 */

import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import type { TaskHandleRecord, TaskHandleStore } from './types.js';

/** Handles in IndexedDB, keyed by invocation id. Opened on first use. */
export function idbTaskHandles(dbName = 'toolgate-tasks', storeName = 'handles'): TaskHandleStore {
  let store: UseStore | undefined;
  const use = (): UseStore => {
    store ??= createStore(dbName, storeName);
    return store;
  };
  return {
    put: (handle) => set(handle.invocationId, keepOnly(handle), use()),
    delete: (invocationId) => del(invocationId, use()),
    async list() {
      const found = await entries<string, unknown>(use());
      return found.flatMap(([, value]) => (isHandle(value) ? [value] : []));
    },
  };
}

/** Handles in memory: a task lives as long as the page (tests, hosts without storage). */
export function memoryTaskHandles(): TaskHandleStore {
  const handles = new Map<string, TaskHandleRecord>();
  return {
    put: async (handle) => void handles.set(handle.invocationId, keepOnly(handle)),
    delete: async (invocationId) => void handles.delete(invocationId),
    list: async () => [...handles.values()],
  };
}

/** Exactly the handle's fields: whatever else an object carries never reaches storage. */
function keepOnly(handle: TaskHandleRecord): TaskHandleRecord {
  const { invocationId, serverId, toolName, taskId, since, sentAt, definitionHash, answeredKeys } = handle;
  const keys = answeredKeys?.filter((key) => typeof key === 'string');
  return {
    invocationId,
    serverId,
    toolName,
    taskId,
    since,
    sentAt,
    definitionHash,
    ...(keys?.length ? { answeredKeys: keys } : {}),
  };
}

/** Storage is read back unchecked: anything that is not a whole handle is skipped. */
function isHandle(value: unknown): value is TaskHandleRecord {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    ['invocationId', 'serverId', 'toolName', 'taskId', 'definitionHash'].every(
      (k) => typeof v[k] === 'string',
    ) &&
    typeof v.since === 'number' &&
    typeof v.sentAt === 'number' &&
    (v.answeredKeys === undefined ||
      (Array.isArray(v.answeredKeys) && v.answeredKeys.every((k) => typeof k === 'string')))
  );
}
