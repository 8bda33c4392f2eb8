/**
 * The one confirmation a call the person started from a tool's form may still need (the gate asks
 * it when the tool says it is destructive, or a rule of theirs asks): what will run, where, with
 * which arguments, and two buttons. No countdown, no reason to send back (the caller is the person),
 * no second copy of the form they just filled. Deny is first, focused and primary for a destructive
 * tool; Escape denies; Enter acts only on a focused button (ModalDialog takes focus itself).
 */

import { useEffect, useRef } from 'preact/hooks';
import type { PendingApproval } from '../../session/index.js';
import { escapeHidden } from '../components/hidden-characters.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { SERVER_CLAIM, toolMarks } from '../components/tool-marks.js';
import { CONFIRMED_OWN_CALL, DENIED_OWN_CALL } from './approver-words.js';
import { whatDecided } from './decision-source-words.js';

/** What a destructive tool says of itself, in the tool list's words. */
const DESTRUCTIVE_SAYS = toolMarks({ destructiveHint: true })[0]!.says;

/** Longest value shown in full on one line; the rest is cut with an ellipsis (the form holds it all). */
const SHOWN_CHARACTERS = 200;

export function OwnCallConfirmation({ pending, queued }: { pending: PendingApproval; queued: number }) {
  const { request } = pending;
  const tool = request.pinned.tool;
  const destructive = request.ownCall?.destructive === true;
  const titleId = `tg-confirm-title-${request.invocationId}`;
  const denyButton = useRef<HTMLButtonElement>(null);
  const label = escapeHidden(tool.title?.trim() || tool.name);
  const args = Object.entries(request.arguments);

  // ModalDialog focuses the dialog in its own effect, which runs before this parent's: Deny wins.
  useEffect(() => {
    if (destructive) denyButton.current?.focus();
  }, []);

  const deny = () => pending.answer({ action: 'deny', decidedBy: DENIED_OWN_CALL });
  const confirm = () =>
    pending.answer({
      action: 'allow',
      remember: 'once',
      decidedBy: CONFIRMED_OWN_CALL,
    });

  return (
    <ModalDialog
      titleId={titleId}
      class={destructive ? 'tg-own-call tg-risky' : 'tg-own-call'}
      onEscape={deny}
      onKeyDown={(event) => {
        // Only a focused button acts on Enter.
        if (event.key === 'Enter' && (event.target as HTMLElement).tagName !== 'BUTTON')
          event.preventDefault();
      }}
    >
      <h2 id={titleId}>
        {label} on {request.serverLabel}?
      </h2>
      {queued > 1 && <p class="tg-muted">{queued - 1} more waiting</p>}
      <p class="tg-own-call-why">
        {destructive ? `${label} says it ${DESTRUCTIVE_SAYS} (${SERVER_CLAIM}).` : request.decision.reason}
      </p>
      <details class="tg-why">
        <summary>Why was I asked?</summary>
        <p>
          {destructive
            ? `Your click on Call is enough for your own calls, except to a tool that says it ${DESTRUCTIVE_SAYS} (${SERVER_CLAIM}): Toolgate confirms those first.`
            : whatDecided(request.decision, request.caller)}
        </p>
      </details>
      {args.length > 0 ? (
        <ul class="tg-own-call-arguments" aria-label="Arguments">
          {args.map(([name, value]) => (
            <li key={name} class="tg-wrap">
              <code>{escapeHidden(name)}</code> = <code>{shown(value)}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p class="tg-muted">No arguments.</p>
      )}
      <div class="tg-actions">
        <button
          ref={denyButton}
          type="button"
          class={destructive ? 'tg-deny tg-primary' : 'tg-deny'}
          onClick={deny}
        >
          Deny
        </button>
        <button type="button" class={destructive ? undefined : 'tg-allow'} onClick={confirm}>
          Confirm
        </button>
      </div>
    </ModalDialog>
  );
}

/** A value on one line as the person typed it: strings bare, the rest as JSON; hidden characters escaped. */
function shown(value: unknown): string {
  const text = escapeHidden(typeof value === 'string' ? value : String(JSON.stringify(value)));
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
}
