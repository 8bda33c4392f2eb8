/** A server asks the person for input (form or URL mode): a modal around the elicitation form. */

import { ElicitationForm } from '../components/elicitation-form.js';
import { ModalDialog } from '../components/modal-dialog.js';
import type { PendingElicitation } from '../controller.js';

export function ElicitationDialog({ pending }: { pending: PendingElicitation }) {
  const titleId = `tg-elicit-${pending.id}`;
  return (
    <ModalDialog titleId={titleId} onEscape={() => pending.answer({ action: 'cancel' })}>
      <h2 id={titleId}>{pending.serverId} asks for input</h2>
      <ElicitationForm request={pending.request} onAnswer={(answer) => pending.answer(answer)} />
    </ModalDialog>
  );
}
