/**
 * Export, asked once: "Export 9 entries (17 events) to toolgate-audit-2026-11-28.jsonl?", with the
 * format to choose, then progress, then what was written. The whole log is exported (filters only
 * narrow the table): a file that verifies offline needs every event of the chain.
 */

import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { AuditLog } from '../../audit/index.js';
import { auditFileName, downloadAuditLog } from './audit-download.js';
import { countOf } from './audit-words.js';

type Format = 'ndjson' | 'json';

export function AuditExport({ log }: { log: AuditLog }) {
  const asking = useSignal<{ entries: number; events: number } | undefined>(undefined);
  const format = useSignal<Format>('ndjson');
  const progress = useSignal<number | undefined>(undefined);
  const done = useSignal('');
  const problem = useSignal('');
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (asking.value) confirm.current?.focus();
  }, [asking.value !== undefined]);

  const ask = async () => {
    done.value = '';
    problem.value = '';
    const [entries, events] = await Promise.all([log.count(), log.countEvents()]);
    asking.value = { entries, events };
  };
  const close = () => {
    asking.value = undefined;
    queueMicrotask(() => opener.current?.focus());
  };
  const run = async () => {
    const counts = asking.value;
    if (!counts) return;
    const name = auditFileName(format.value);
    asking.value = undefined;
    opener.current?.focus();
    try {
      await downloadAuditLog(
        log,
        format.value,
        (fraction) => {
          progress.value = fraction;
        },
        name,
      );
      done.value = `Exported ${countOf(counts.entries, 'entry', 'entries')} (${countOf(counts.events, 'event', 'events')}) to ${name}. Keep the file: it verifies offline (scripts/verify-audit-export.mjs).`;
    } catch (error) {
      problem.value = `Export failed: ${(error as Error).message}`;
    } finally {
      progress.value = undefined;
    }
  };

  const counts = asking.value;
  return (
    <div class="tg-audit-export">
      <button ref={opener} type="button" aria-expanded={counts !== undefined} onClick={() => void ask()}>
        Export…
      </button>
      {counts && (
        <section
          class="tg-audit-confirm"
          aria-labelledby="tg-audit-export-question"
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              close();
            }
          }}
        >
          <p id="tg-audit-export-question">
            <strong>
              Export {countOf(counts.entries, 'entry', 'entries')} (
              {countOf(counts.events, 'event', 'events')}) to {auditFileName(format.value)}?
            </strong>
          </p>
          <p class="tg-muted">The whole log, whatever the filters show, so the file verifies on its own.</p>
          <fieldset class="tg-row">
            <legend class="tg-visually-hidden">Format</legend>
            <label>
              <input
                type="radio"
                name="tg-audit-format"
                checked={format.value === 'ndjson'}
                onChange={() => {
                  format.value = 'ndjson';
                }}
              />{' '}
              JSON Lines (one event per line)
            </label>
            <label>
              <input
                type="radio"
                name="tg-audit-format"
                checked={format.value === 'json'}
                onChange={() => {
                  format.value = 'json';
                }}
              />{' '}
              One JSON document
            </label>
          </fieldset>
          <div class="tg-row">
            <button ref={confirm} type="button" class="tg-primary" onClick={() => void run()}>
              Export
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {progress.value !== undefined && (
        <progress aria-label="Export progress" max={1} value={progress.value} />
      )}
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
      <p role="status" class="tg-muted tg-audit-export-done">
        {done.value}
      </p>
    </div>
  );
}
