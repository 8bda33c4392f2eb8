/**
 * "Run again": a past call (from Activity, an audit entry, a saved call or a loaded calls file) put
 * into its tool's form in the Tools tab, pre-filled and editable. Nothing runs until the person
 * presses Call there, so running again is a new call through the whole gate, with its own audit
 * entry. Values that were redacted are left out and named, for the person to fill (rerun-draft.ts).
 */

import { useSignal } from '@preact/signals';
import type { JsonObject } from '../../protocol/index.js';
import { type PanelController, rerunDraft, serverNames } from '../../session/index.js';
import type { PanelViewState } from '../view-state.js';

/** What the Run again buttons need from the panel: its remembered forms and the way to the Tools tab. */
export interface RunAgainHost {
  views: PanelViewState;
  openTools: () => void;
}

interface PastCall {
  serverId: string;
  toolName: string;
  /** As shown (redacted or not: they are redacted again before they reach the form). */
  arguments: JsonObject;
}

/**
 * Puts `call` into its tool's form and opens it; returns why it cannot (the tool is not listed by a
 * connected server now), or undefined when the form is open.
 */
function openInForm(host: RunAgainHost, controller: PanelController, call: PastCall): string | undefined {
  const server = controller.servers.value.find((candidate) => candidate.id === call.serverId);
  const name = serverNames(controller.servers.value)(call.serverId);
  if (!server) return `${name} is not among this panel's servers: add it to run this call again.`;
  if (!server.tools.some((tool) => tool.name === call.toolName))
    return server.state === 'connected'
      ? `${name} no longer lists ${call.toolName}.`
      : `${name} is not connected: connect it to run this call again.`;
  const key = `${call.serverId}/${call.toolName}`;
  const { draft, toFill } = rerunDraft(call.arguments);
  const { views } = host;
  views.drafts.set(key, draft);
  if (toFill.length > 0) views.toFill.set(key, toFill);
  else views.toFill.delete(key);
  views.toolQuery.value = '';
  views.selectedTool.value = key;
  views.focusToolDetail.value = true;
  host.openTools();
  return undefined;
}

/** The button, with the reason beside it when the call cannot be put into a form now. */
export function RunAgainButton({
  host,
  controller,
  call,
}: {
  host: RunAgainHost;
  controller: PanelController;
  call: PastCall;
}) {
  const problem = useSignal('');
  return (
    <>
      <button
        type="button"
        class="tg-run-again"
        onClick={() => {
          problem.value = openInForm(host, controller, call) ?? '';
        }}
      >
        Run again
      </button>
      {problem.value && (
        <span class="tg-error" role="alert">
          {problem.value}
        </span>
      )}
    </>
  );
}
