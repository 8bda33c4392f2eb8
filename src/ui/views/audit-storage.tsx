/**
 * The audit log's storage: when the browser refuses to store more, what to do about it (at the top
 * of the view: AuditStorageFull), and what the log keeps (the retention setting, stored with the
 * log: AuditRetention, in the view's settings below the table). While the log is full every call
 * is refused (nothing may leave unrecorded); exporting and removing the oldest entries makes room,
 * and calls resume with the next one, without a reload.
 */

import { useSignal, useSignalEffect } from '@preact/signals';
import type { AuditLog, RetentionPolicy } from '../../audit/index.js';
import { downloadAuditLog } from './audit-download.js';

/** The alert while the log is full, with the two ways out; nothing while there is room. */
export function AuditStorageFull({ log }: { log: AuditLog }) {
  const full = useSignal(log.storageProblem() ?? '');
  const status = useSignal('');
  const problem = useSignal('');
  const exporting = useSignal<number | undefined>(undefined);

  useSignalEffect(() =>
    log.subscribe((change) => {
      if (change.type === 'storage-full') full.value = change.message;
      if (change.type === 'appended') full.value = '';
    }),
  );

  const exportNow = async () => {
    problem.value = '';
    try {
      await downloadAuditLog(log, 'ndjson', (fraction) => {
        exporting.value = fraction;
      });
      status.value = 'Exported. Keep the file: it verifies offline (scripts/verify-audit-export.mjs).';
    } catch (error) {
      problem.value = `Export failed: ${(error as Error).message}`;
    } finally {
      exporting.value = undefined;
    }
  };

  const removeOldestHalf = async () => {
    problem.value = '';
    try {
      const count = await log.count();
      const report = await log.prune({ maxEntries: Math.floor(count / 2) });
      status.value = `Removed the ${report.removedEntries} oldest entries; the rest still verifies from the checkpoint.`;
    } catch (error) {
      // Chromium refuses even deletions once an origin is over its quota: say what still helps.
      problem.value =
        (error as Error).name === 'QuotaExceededError'
          ? 'The browser refused even to remove entries while its storage is full. Free disk space on this computer, or clear other data this site stores; the next call goes through once there is room.'
          : `Could not remove entries: ${(error as Error).message}`;
    }
  };

  if (!full.value && !status.value && !problem.value) return null;
  return (
    <section class="tg-audit-full" aria-label="Audit log storage">
      {full.value && (
        <div class="tg-warning" role="alert">
          <p>
            <strong>The audit log is full.</strong> Calls are refused until there is room, because nothing may
            run unrecorded. Export the log, then remove the oldest entries (or free disk space); the next call
            goes through.
          </p>
          <div class="tg-row">
            <button type="button" onClick={() => void exportNow()}>
              Export the log
            </button>
            <button type="button" onClick={() => void removeOldestHalf()}>
              Remove the oldest half
            </button>
          </div>
        </div>
      )}
      {exporting.value !== undefined && (
        <progress aria-label="Export progress" max={1} value={exporting.value} />
      )}
      {problem.value && <p class="tg-error">{problem.value}</p>}
      <p role="status" class="tg-muted">
        {status.value}
      </p>
    </section>
  );
}

/** What the log keeps, and the form that changes it. */
export function AuditRetention({ log }: { log: AuditLog }) {
  const kept = useSignal<RetentionPolicy | false | undefined>(undefined);
  const draft = useSignal('');
  const keepAll = useSignal(false);
  const status = useSignal('');
  const problem = useSignal('');

  useSignalEffect(() => {
    void log.retention().then((value) => {
      kept.value = value;
      keepAll.value = value === false;
      draft.value = value === false ? '' : String(value.maxEntries ?? '');
    });
    return log.subscribe((change) => {
      if (change.type === 'retention') kept.value = change.retention;
    });
  });

  const save = async (event: Event) => {
    event.preventDefault();
    problem.value = '';
    const entries = Number(draft.value);
    if (!keepAll.value && (!Number.isInteger(entries) || entries < 100)) {
      problem.value = 'Keep at least 100 entries (a whole number), or choose to keep everything.';
      return;
    }
    try {
      const report = await log.setRetention(keepAll.value ? false : { maxEntries: entries });
      status.value = keepAll.value
        ? 'The log now keeps everything until you remove entries.'
        : `The log now keeps the newest ${entries.toLocaleString()} entries${report?.removedEntries ? `; removed ${report.removedEntries}` : ''}.`;
    } catch (error) {
      problem.value = (error as Error).message;
    }
  };

  const current = kept.value;
  return (
    <section class="tg-audit-storage" aria-labelledby="tg-audit-retention-heading">
      <h4 id="tg-audit-retention-heading">What the log keeps</h4>
      <form class="tg-row" noValidate onSubmit={(event) => void save(event)}>
        <span>
          {current === undefined
            ? 'Reading what the log keeps…'
            : current === false
              ? 'Keeps every entry.'
              : `Keeps the newest ${(current.maxEntries ?? 0).toLocaleString()} entries${current.maxAgeMs ? ` of the last ${Math.round(current.maxAgeMs / 86_400_000)} days` : ''}; older ones are removed (export first to keep them).`}
        </span>
        <label>
          Keep newest{' '}
          <input
            type="number"
            min={100}
            step={100}
            inputMode="numeric"
            disabled={keepAll.value}
            value={draft.value}
            onInput={(event) => {
              draft.value = (event.currentTarget as HTMLInputElement).value;
            }}
          />{' '}
          entries
        </label>
        <label>
          <input
            type="checkbox"
            checked={keepAll.value}
            onChange={(event) => {
              keepAll.value = (event.currentTarget as HTMLInputElement).checked;
            }}
          />{' '}
          Keep everything
        </label>
        <button type="submit">Save</button>
      </form>
      {problem.value && <p class="tg-error">{problem.value}</p>}
      <p role="status" class="tg-muted">
        {status.value}
      </p>
    </section>
  );
}
