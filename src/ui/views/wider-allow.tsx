/**
 * The approval dialog's wider choices: allow this call and remember more than this tool. Every
 * tool of the server for this session (shown), and under "Other choices" for an hour, the server's
 * read-only tools for this session, or this tool for an hour. A server-wide choice never covers a tool that may destroy things (one
 * that does not say it is harmless) unless the person ticks that here; ticked or not, the call
 * being asked about is allowed, since the person just approved it. Each choice covers the caller
 * named in the legend only, and is listed (and revocable) in the Approvals tab.
 */

import { useSignal } from '@preact/signals';
import type { ApprovalRequest } from '../../gate/index.js';
import { claimsHarmless, describeCaller, type RememberScope } from '../../gate/index.js';

const WIDER_CSS =
  '.tg-wider-allow{border:1px solid var(--tg-border);border-radius:6px;margin-top:var(--tg-s3);padding:var(--tg-s2) var(--tg-s3)}.tg-wider-allow .tg-actions{margin-top:0}.tg-wider-allow .tg-field-check{display:flex;margin:var(--tg-s2) 0}.tg-wider-allow p{margin:var(--tg-s1) 0}.tg-wider-more{margin-top:var(--tg-s2)}';

export interface WiderChoice {
  remember: Exclude<RememberScope, 'once'>;
  reach: 'tool' | 'server' | 'server-read-only';
  includeDestructive?: boolean;
}

export function WiderAllow({
  request,
  canAllow,
  onAllow,
}: {
  request: ApprovalRequest;
  canAllow: boolean;
  onAllow: (choice: WiderChoice) => void;
}) {
  const includeDestructive = useSignal(false);
  const server = request.serverLabel;
  const tool = request.pinned.tool;
  const tickId = `tg-wider-destructive-${request.invocationId}`;
  const harmless = claimsHarmless(tool.annotations);
  const serverWide = (remember: WiderChoice['remember']) =>
    onAllow({
      remember,
      reach: 'server',
      ...(includeDestructive.value ? { includeDestructive: true } : {}),
    });
  return (
    <fieldset class="tg-wider-allow">
      <style>{WIDER_CSS}</style>
      <legend>Or allow more, for {describeCaller(request.caller)} only</legend>
      <div class="tg-actions">
        <button type="button" disabled={!canAllow} onClick={() => serverWide('session')}>
          Allow server {server} for this session
        </button>
      </div>
      <div class="tg-field-check">
        <input
          id={tickId}
          type="checkbox"
          checked={includeDestructive.value}
          onChange={(event) => {
            includeDestructive.value = event.currentTarget.checked;
          }}
        />
        <label for={tickId}>
          Server-wide choices also cover tools that may destroy things (those that do not say they are
          harmless)
        </label>
      </div>
      {!harmless && !includeDestructive.value && (
        <p class="tg-muted">
          {tool.name} does not say it is harmless: a server-wide choice allows this call, and asks about{' '}
          {tool.name} again next time.
        </p>
      )}
      <details class="tg-wider-more">
        <summary>Other choices</summary>
        <div class="tg-actions">
          <button type="button" disabled={!canAllow} onClick={() => serverWide('hour')}>
            Allow server {server} for an hour
          </button>
          <button
            type="button"
            disabled={!canAllow}
            onClick={() => onAllow({ remember: 'session', reach: 'server-read-only' })}
          >
            Allow the read-only tools of {server} for this session
          </button>
          <button
            type="button"
            disabled={!canAllow}
            onClick={() => onAllow({ remember: 'hour', reach: 'tool' })}
          >
            Allow {tool.name} for an hour
          </button>
        </div>
      </details>
      <p class="tg-muted">“This session” ends when this page is closed or reloaded.</p>
    </fieldset>
  );
}
