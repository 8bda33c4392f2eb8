/** A server asks the person for input (form or URL mode): a modal around the elicitation form. */

import { useEffect, useRef } from 'preact/hooks';
import { ElicitationForm } from '../components/elicitation-form.js';
import type { PendingElicitation } from '../controller.js';
import { trapFocus } from '../focus-trap.js';

export function ElicitationDialog({ pending }: { pending: PendingElicitation }) {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
    return trapFocus(dialog.current);
  }, []);
  const titleId = `tg-elicit-${pending.id}`;
  return (
    <div class="tg-backdrop">
      <div
        ref={dialog}
        class="tg-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            pending.answer({ action: 'cancel' });
          }
        }}
      >
        <h2 id={titleId}>{pending.serverId} asks for input</h2>
        <ElicitationForm request={pending.request} onAnswer={(answer) => pending.answer(answer)} />
      </div>
    </div>
  );
}
