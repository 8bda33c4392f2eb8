/**
 * The few IndexedDB primitives the audit log needs, as promises. The log opens its own database
 * (idb-keyval's createStore gives one plain object store without indexes; see DESIGN.md for the
 * measurements behind the choice).
 */

/** Resolves with a request's result; rejects with its error (a DOMException such as QuotaExceededError). */
export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Resolves when a transaction has committed, rejects when it aborts. The error is the request's or the
 * transaction's (QuotaExceededError surfaces on the transaction).
 */
export function transactionDone(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () =>
      reject(transaction.error ?? new DOMException('The transaction was aborted', 'AbortError'));
    transaction.onerror = (event) => {
      // Recorded on abort; preventDefault is not used so the transaction still aborts.
      event.stopPropagation();
    };
  });
}

/** Opens (and creates or upgrades) a database. Blocked upgrades wait for other tabs, with a clear error after a while. */
export function openDatabase(
  name: string,
  version: number,
  upgrade: (database: IDBDatabase, oldVersion: number, transaction: IDBTransaction) => void,
  factory: IDBFactory = indexedDB,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name, version);
    request.onupgradeneeded = (event) => {
      const transaction = request.transaction;
      if (transaction) upgrade(request.result, event.oldVersion, transaction);
    };
    request.onsuccess = () => {
      const database = request.result;
      // A newer version in another tab asks us to let go; close so its upgrade can proceed.
      database.onversionchange = () => database.close();
      resolve(database);
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => {
      // Another tab holds an older version open; it closes on versionchange, so this resolves itself.
    };
  });
}
