/**
 * Calls the person saved with a name, to run again later from their tool's form: kept in this
 * origin's IndexedDB (database `toolgate-saved-calls`), listed per server. The arguments are stored
 * redacted, as the audit log stores them: a saved call never keeps a secret, and running it asks
 * the person for what was hidden.
 */

import { idbSettingsStore, newRecordId, type SettingsStore } from '../gate/index.js';
import { isJsonObject, type JsonObject, redactSecrets } from '../protocol/index.js';

export interface SavedCall {
  id: string;
  name: string;
  serverId: string;
  toolName: string;
  arguments: JsonObject;
  savedAt: number;
}

interface SavedCalls {
  list(): Promise<SavedCall[]>;
  save(call: Omit<SavedCall, 'id' | 'savedAt'>): Promise<SavedCall>;
  remove(id: string): Promise<void>;
}

const PREFIX = 'call:';

/** The saved calls of this origin (IndexedDB unless another store is given, as in tests). */
export function savedCalls(
  store: SettingsStore = idbSettingsStore('toolgate-saved-calls', 'calls'),
): SavedCalls {
  return {
    async list() {
      const found = (await store.entries(PREFIX)).map(([, value]) => value).filter(isSavedCall);
      return found.sort((a, b) => a.name.localeCompare(b.name) || a.savedAt - b.savedAt);
    },
    async save(call) {
      const saved: SavedCall = {
        id: newRecordId(),
        name: call.name.trim() || call.toolName,
        serverId: call.serverId,
        toolName: call.toolName,
        arguments: redactSecrets(call.arguments).value,
        savedAt: Date.now(),
      };
      await store.set(PREFIX + saved.id, saved);
      return saved;
    },
    remove: (id) => store.del(PREFIX + id),
  };
}

/** Read back unchecked from storage: anything not shaped like a saved call is left out. */
function isSavedCall(value: unknown): value is SavedCall {
  if (!isJsonObject(value)) return false;
  return (
    typeof value.id === 'string' &&
    typeof value.name === 'string' &&
    typeof value.serverId === 'string' &&
    typeof value.toolName === 'string' &&
    typeof value.savedAt === 'number' &&
    isJsonObject(value.arguments)
  );
}
