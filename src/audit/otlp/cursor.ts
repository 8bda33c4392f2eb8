/**
 * How far an export got: the last sequence number the collector acknowledged, with that event's hash,
 * kept in IndexedDB so an export resumes after a reload where it stopped. The hash tells a cursor of
 * an older log (deleted and started again under the same name) from one of this log.
 */

import { createStore, get, set, type UseStore } from 'idb-keyval';

export interface ExportCursor {
  seq: number;
  /** The acknowledged event's hash; absent when the cursor stands on a pruning checkpoint. */
  hash?: string;
  /** The newest anchored head the collector acknowledged (heads are records of their own). */
  anchorSeq?: number;
}

let store: UseStore | undefined;
const cursors = () => {
  store ??= createStore('toolgate-otlp', 'cursors');
  return store;
};

/** One cursor per log and collector endpoint: another collector gets the whole log. */
export function cursorKey(logName: string, endpoint: string): string {
  return `${logName}\n${endpoint}`;
}

export async function loadCursor(key: string): Promise<ExportCursor | undefined> {
  const stored = (await get(key, cursors())) as ExportCursor | undefined;
  return stored && Number.isSafeInteger(stored.seq) && stored.seq >= 0 ? stored : undefined;
}

export function saveCursor(key: string, cursor: ExportCursor): Promise<void> {
  return set(key, cursor, cursors());
}
