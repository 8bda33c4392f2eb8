/**
 * The question for a read or a prompt get that a site, an app or the host's model asks for
 * (the gate's `approveAccess`): who asks, which server, and exactly what: the resource's URI, or the
 * prompt's name with each argument. Allow once, for this session or always (for this caller only,
 * this URI or this prompt with any arguments; listed under Approvals with Revoke), or Deny; Escape
 * denies. It arms like every panel question (ModalDialog), so a click meant for something
 * else does not answer it.
 */

import type { Caller } from '../../gate/index.js';
import type { PendingAccess } from '../../session/index.js';
import { escapeHidden } from '../components/hidden-characters.js';
import { ModalDialog } from '../components/modal-dialog.js';

export function AccessDialog({ pending, queued }: { pending: PendingAccess; queued: number }) {
  const { request } = pending;
  const { target } = request;
  const titleId = `tg-access-title-${request.invocationId}`;
  const named = callerWords(request.caller);
  const who = named.charAt(0).toUpperCase() + named.slice(1);
  const deny = () => pending.answer({ action: 'deny', decidedBy: 'person (panel)' });
  const allow = (remember: 'once' | 'session' | 'always') =>
    pending.answer({ action: 'allow', remember, decidedBy: 'person (panel)' });
  const thing = target.kind === 'resource' ? 'resource' : 'prompt';
  const args = target.kind === 'prompt' ? Object.entries(target.arguments ?? {}) : [];
  return (
    <ModalDialog titleId={titleId} class="tg-own-call" onEscape={deny}>
      <h2 id={titleId}>
        {target.kind === 'resource' ? 'Read a resource' : 'Use a prompt'} on {request.serverLabel}?
      </h2>
      {queued > 1 && <p class="tg-muted">{queued - 1} more waiting</p>}
      <p>
        {who} asks to {target.kind === 'resource' ? 'read' : 'get the prompt'}:
      </p>
      <p class="tg-wrap">
        <code>{escapeHidden(target.kind === 'resource' ? target.uri : target.name)}</code>
      </p>
      {target.kind === 'prompt' &&
        (args.length > 0 ? (
          <ul class="tg-own-call-arguments" aria-label="Arguments">
            {args.map(([name, value]) => (
              <li key={name} class="tg-wrap">
                <code>{escapeHidden(name)}</code> = <code>{escapeHidden(value)}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p class="tg-muted">No arguments.</p>
        ))}
      <p class="tg-muted">What comes back goes to {named}, and is recorded in the audit log.</p>
      <div class="tg-actions">
        <button type="button" class="tg-deny" onClick={deny}>
          Deny
        </button>
        <button type="button" class="tg-allow" onClick={() => allow('once')}>
          Allow once
        </button>
        <button type="button" onClick={() => allow('session')}>
          Allow for this session
        </button>
        <button type="button" onClick={() => allow('always')}>
          Always allow this {thing}
        </button>
      </div>
    </ModalDialog>
  );
}

/** Who asks, as the approval dialog and the log name them ("the app (Agent)", "the web site …"). */
function callerWords(caller: Caller): string {
  const label = caller.label?.trim();
  if (caller.kind === 'host') return label ? `the app (${label})` : 'the app';
  if (caller.kind === 'site') return label ? `the web site ${label}` : 'a web site';
  if (caller.kind === 'mcp-app') return label ? `the MCP App ${label}` : 'an MCP App';
  return 'you';
}
