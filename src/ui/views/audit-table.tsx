/**
 * The audit entries as a table, newest first: a compact time (the full one in its title), the tool,
 * the server's name, who asked and the outcome in words with a mark. Each row's tool is a button
 * (the keyboard's way in) and a click anywhere on the row does the same: open the entry's drawer.
 * Below 560 px of panel each row becomes a card whose cells carry their labels.
 */

import type { AuditEntry } from '../../audit/index.js';
import type { ServerNames } from '../../session/index.js';
import { ToolName, visibleToolName } from '../components/tool-name.js';
import { actionLabel, callerInWords, compactTime, fullTime, outcomeWordsOf } from './audit-words.js';

/**
 * What an entry is about: a tool call by the tool's name, an action (a sign-in, an app shown, a
 * skill's step) by its plain label first with the name it is recorded under beside it.
 */
/** The entry's name as its button is read: the label and the recorded name, as shown. */
function entryName(entry: Pick<AuditEntry, 'toolName' | 'decision'>): string {
  const label = actionLabel(entry);
  const name = visibleToolName(entry.toolName);
  return label === undefined ? name : `${label} ${name}`;
}

export function EntryName({ entry }: { entry: Pick<AuditEntry, 'toolName' | 'decision'> }) {
  const label = actionLabel(entry);
  if (label === undefined) return <ToolName name={entry.toolName} />;
  return (
    <>
      <span class="tg-action-label">{label}</span> <code class="tg-muted">{entry.toolName}</code>
    </>
  );
}

export function AuditTable({
  entries,
  names,
  busy,
  selectedId,
  onOpen,
}: {
  entries: readonly AuditEntry[];
  names: ServerNames;
  busy: boolean;
  selectedId: string | undefined;
  onOpen: (entry: AuditEntry, opener: HTMLElement) => void;
}) {
  const now = Date.now();
  return (
    <table class="tg-log-table" aria-busy={busy}>
      <caption class="tg-visually-hidden">Audit entries, newest first; each opens its details</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Tool</th>
          <th scope="col">Server</th>
          <th scope="col">Who asked</th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => {
          const outcome = outcomeWordsOf(entry);
          return (
            <tr
              key={entry.invocationId}
              class={`tg-outcome-${entry.outcome}`}
              data-outcome={entry.outcome}
              aria-current={entry.invocationId === selectedId ? 'true' : undefined}
              onClick={(event) => {
                const button = (event.currentTarget as HTMLElement).querySelector<HTMLElement>(
                  '.tg-log-open',
                );
                if (button && event.target !== button && !button.contains(event.target as Node))
                  onOpen(entry, button);
              }}
            >
              <td data-label="When" class="tg-log-when" title={fullTime(entry.startedAt)}>
                {compactTime(entry.startedAt, now)}
              </td>
              <td data-label="Tool" class="tg-wrap">
                <button
                  type="button"
                  class="tg-log-open"
                  aria-label={`Details of ${entryName(entry)} at ${new Date(entry.startedAt).toLocaleTimeString()}`}
                  onClick={(event) => onOpen(entry, event.currentTarget)}
                >
                  <EntryName entry={entry} />
                </button>
              </td>
              <td data-label="Server" class="tg-wrap" title={entry.serverId}>
                {names(entry.serverId)}
              </td>
              <td data-label="Who asked" class="tg-wrap">
                {callerInWords(entry)}
              </td>
              <td data-label="Outcome">
                <span class={`tg-outcome tg-tone-${outcome.tone}`}>
                  <span aria-hidden="true">{outcome.icon}</span> {outcome.label}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
