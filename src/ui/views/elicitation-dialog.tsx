/**
 * A server asks the person for input (form or URL mode): a modal around the elicitation form, one
 * question at a time. It says how many more wait, and a server that floods the person can be
 * answered at once: "Decline all" declines every question of that server still waiting.
 */

import type { PendingElicitation } from '../../session/index.js';
import { ElicitationForm } from '../components/elicitation-form.js';
import { ModalDialog } from '../components/modal-dialog.js';

export function ElicitationDialog({
  pending,
  queue = [pending],
  serverName = (id) => id,
}: {
  pending: PendingElicitation;
  /** Every question waiting, this one included (the panel's queue). */
  queue?: readonly PendingElicitation[];
  /** How the panel names a server (its label; see server-names.ts). */
  serverName?: (serverId: string) => string;
}) {
  const asker = serverName(pending.serverId);
  const titleId = `tg-elicit-${pending.id}`;
  const waiting = queue.filter((item) => item.id !== pending.id).length;
  const fromThisServer = queue.filter((item) => item.serverId === pending.serverId);
  const declineAll = () => {
    for (const item of fromThisServer) item.answer({ action: 'decline' });
  };
  return (
    <ModalDialog titleId={titleId} onEscape={() => pending.answer({ action: 'cancel' })}>
      <h2 id={titleId}>{asker} asks for input</h2>
      {(pending.toolName || pending.taskId) && (
        <p class="tg-muted">
          {pending.toolName && (
            <>
              While running <code>{pending.toolName}</code>
            </>
          )}
          {pending.taskId && (
            <>
              {pending.toolName ? ' as task ' : 'For task '}
              <code class="tg-task-id">{pending.taskId}</code>
            </>
          )}
        </p>
      )}
      {waiting > 0 && (
        <p class="tg-queue-note" role="status">
          {waiting === 1 ? '1 more question is waiting' : `${waiting} more questions are waiting`}
          {fromThisServer.length - 1 < waiting ? ` (${fromThisServer.length - 1} from ${asker})` : ''}.
        </p>
      )}
      <ElicitationForm request={pending.request} onAnswer={(answer) => pending.answer(answer)} />
      {fromThisServer.length > 1 && (
        <div class="tg-actions">
          <button type="button" class="tg-deny" onClick={declineAll}>
            Decline all {fromThisServer.length} from {asker}
          </button>
        </div>
      )}
    </ModalDialog>
  );
}
