/**
 * A line above every tab when the audit log is full: calls are refused then, and the person may be
 * looking at another tab when it happens. It leads to the audit log, where export and pruning are.
 */

import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { PanelController } from '../session/index.js';

export function AuditAlert({ controller, onOpen }: { controller: PanelController; onOpen: () => void }) {
  const full = useSignal(false);
  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let live = true;
    controller.ready
      .then(({ auditLog }) => {
        if (!live || !auditLog) return;
        full.value = auditLog.storageProblem() !== undefined;
        unsubscribe = auditLog.subscribe((change) => {
          if (change.type === 'storage-full') full.value = true;
          if (change.type === 'appended' || change.type === 'pruned') full.value = false;
        });
      })
      .catch(() => undefined);
    return () => {
      live = false;
      unsubscribe?.();
    };
  }, [controller]);
  if (!full.value) return null;
  return (
    <p class="tg-warning" role="alert">
      The audit log is full, so calls are refused.{' '}
      <button type="button" onClick={onOpen}>
        Make room in the audit log
      </button>
    </p>
  );
}
