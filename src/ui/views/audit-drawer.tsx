/**
 * One audit entry in a side drawer: who asked, the arguments (redacted as the log stores them),
 * the result, the timings, the decision in plain words, and the raw chain events folded. A dialog
 * at the side on a wide panel, the whole width on a narrow one; Escape or Close shuts it and focus
 * goes back to the row that opened it.
 */

import { useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { AuditEntry, AuditLog, ChainEvent } from '../../audit/index.js';
import { isJsonObject } from '../../protocol/index.js';
import type { PanelController, ServerNames } from '../../session/index.js';
import { duration } from '../components/call-words.js';
import { JsonTree } from '../components/json-tree.js';
import { trapFocus } from '../focus-trap.js';
import { EntryName } from './audit-table.js';
import { actionLabel, callerInWords, decisionInWords, fullTime, outcomeWordsOf } from './audit-words.js';
import { whatDecided } from './decision-source-words.js';
import { RunAgainButton, type RunAgainHost } from './run-again.js';

/** What an entry's "Run again" needs: where the form is, and the servers' tools. */
export interface AuditRunAgain {
  host: RunAgainHost;
  controller: PanelController;
}

/** Arguments longer than this (pretty-printed) are cut in the drawer; the raw events keep them whole. */
const SHOWN_CHARS = 20_000;

export function AuditDrawer({
  entry,
  log,
  names,
  onClose,
  runAgain,
}: {
  entry: AuditEntry;
  log: AuditLog;
  names: ServerNames;
  onClose: () => void;
  runAgain?: AuditRunAgain | undefined;
}) {
  const events = useSignal<ChainEvent[] | undefined>(undefined);
  const panel = useRef<HTMLDivElement>(null);
  // Read again when the entry changes (a running call that finishes while its drawer is open).
  useEffect(() => {
    let live = true;
    void log.eventsOf(entry.invocationId).then((found) => {
      if (live) events.value = found;
    });
    return () => {
      live = false;
    };
  }, [entry]);
  // Before paint, so an Escape pressed the moment the drawer shows reaches it (see ModalDialog).
  useLayoutEffect(() => {
    panel.current?.focus();
    return trapFocus(panel.current);
  }, []);
  const outcome = outcomeWordsOf(entry);
  const titleId = `tg-audit-drawer-${entry.invocationId}`;
  const found = events.value ? evidenceOf(events.value) : undefined;
  return (
    <div class="tg-audit-drawer-backdrop">
      <div
        ref={panel}
        class="tg-audit-drawer tg-entry-detail"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            onClose();
          }
        }}
      >
        <header class="tg-audit-drawer-head">
          <h3 id={titleId}>
            <EntryName entry={entry} /> on {names(entry.serverId)}
          </h3>
          {runAgain && found && actionLabel(entry) === undefined && (
            // The arguments as stored (redacted): what was hidden is left for the person to fill.
            <RunAgainButton
              host={runAgain.host}
              controller={runAgain.controller}
              call={{
                serverId: entry.serverId,
                toolName: entry.toolName,
                arguments: isJsonObject(found.arguments) ? found.arguments : {},
              }}
            />
          )}
          <button type="button" onClick={onClose}>
            Close
          </button>
        </header>
        <p class={`tg-outcome tg-tone-${outcome.tone}`}>
          <span aria-hidden="true">{outcome.icon}</span> {outcome.label}
        </p>
        <dl class="tg-audit-facts">
          <dt>Who asked</dt>
          <dd>{callerInWords(entry)}</dd>
          <dt>Decision</dt>
          <dd>{decisionInWords(entry)}</dd>
          {/* The person's own click needs no second line: "Decision" already says it. */}
          {entry.decision && actionLabel(entry) === undefined && !ownClick(entry.decision) && (
            <>
              <dt>Decided by</dt>
              <dd>{whatDecided(entry.decision, entry.caller)}</dd>
            </>
          )}
          <dt>When</dt>
          <dd>{fullTime(entry.startedAt)}</dd>
          <Timings entry={entry} />
          {entry.task && (
            <>
              <dt>Task</dt>
              <dd>
                <code>{entry.task.id}</code>
                {found?.taskSteps && found.taskSteps.length > 0 && (
                  <ol class="tg-task-steps">
                    {found.taskSteps.map((step, index) => (
                      <li key={index}>
                        {fullTime(step.at)}: {step.status}
                        {step.statusMessage ? ` (${step.statusMessage})` : ''}
                      </li>
                    ))}
                  </ol>
                )}
              </dd>
            </>
          )}
          {(entry.sends ?? 1) > 1 && (
            <>
              <dt>Sent</dt>
              <dd>
                {entry.sends} times (re-sent after a lost stream, an expired session or a stale schema; each
                send is its own event)
              </dd>
            </>
          )}
        </dl>
        <h4>Arguments</h4>
        {entry.redactedPaths.some((path) => !path.startsWith('result.')) && (
          <p class="tg-muted">
            Hidden before they were stored:{' '}
            {entry.redactedPaths.filter((path) => !path.startsWith('result.')).join(', ')}
          </p>
        )}
        {found ? (
          <>
            <pre class="tg-audit-json">{pretty(found.arguments)}</pre>
            {found.proposed !== undefined && (
              <>
                <p class="tg-muted">Edited before sending; first proposed:</p>
                <pre class="tg-audit-json">{pretty(found.proposed)}</pre>
              </>
            )}
          </>
        ) : (
          <pre class="tg-audit-json">{entry.argumentsPreview || '{}'}</pre>
        )}
        <h4>Result</h4>
        <Result entry={entry} result={found?.result} />
        <details class="tg-audit-raw">
          <summary>
            Raw chain events ({events.value ? events.value.length : entry.seqs.length}): the records this
            entry is made of, as stored and hashed
          </summary>
          {events.value ? (
            events.value.map((event) => (
              <JsonTree
                key={event.seq}
                value={event}
                label={`event ${event.seq}: ${event.kind}`}
                collapsedDepth={0}
              />
            ))
          ) : (
            <p class="tg-muted">Reading the events…</p>
          )}
        </details>
      </div>
    </div>
  );
}

function Timings({ entry }: { entry: AuditEntry }) {
  const { requested, approved, decided, sent, finished } = entry.timestamps;
  const waited = (approved ?? decided) !== undefined && sent !== undefined ? sent - requested : undefined;
  return (
    <>
      {waited !== undefined && waited >= 1 && (
        <>
          <dt>Before sending</dt>
          <dd>{duration(waited)} (checks and approval)</dd>
        </>
      )}
      {entry.durationMs !== undefined && (
        <>
          <dt>Server time</dt>
          <dd>{duration(entry.durationMs)}</dd>
        </>
      )}
      {finished !== undefined && (
        <>
          <dt>Total</dt>
          <dd>{duration(Math.max(0, finished - requested))}</dd>
        </>
      )}
    </>
  );
}

function Result({ entry, result }: { entry: AuditEntry; result: unknown }) {
  if (entry.outcome === 'pending')
    return <p class="tg-muted">{entry.task ? 'Still running as a task.' : 'Still running.'}</p>;
  if (entry.error) return <p class="tg-error">{entry.error.message}</p>;
  if (result === undefined)
    return (
      <p class="tg-muted">{entry.reason ? `Nothing was sent: ${entry.reason}` : 'No result was recorded.'}</p>
    );
  const texts = textBlocks(result);
  return (
    <>
      {entry.outputValidation === 'invalid' && (
        <p class="tg-error">The result does not match the tool’s output schema.</p>
      )}
      {texts.length > 0 ? (
        texts.map((text, i) => (
          <pre key={i} class="tg-audit-text">
            {text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text}
          </pre>
        ))
      ) : (
        <JsonTree value={result} label="result" />
      )}
    </>
  );
}

/** What the events hold beyond the entry: the full arguments (and the proposal, when edited), the result. */
function evidenceOf(events: readonly ChainEvent[]): {
  arguments: unknown;
  proposed?: unknown;
  result?: unknown;
  /** The task's status changes, in order (a call that ran as a task). */
  taskSteps?: { at: number; status: string; statusMessage?: string }[];
} {
  let args: unknown = {};
  let proposed: unknown;
  let result: unknown;
  const taskSteps: { at: number; status: string; statusMessage?: string }[] = [];
  for (const event of events) {
    if (event.kind === 'task') {
      const step = event.body as { at?: unknown; status?: unknown; statusMessage?: unknown };
      taskSteps.push({
        at: typeof step.at === 'number' ? step.at : event.at,
        status: String(step.status),
        ...(typeof step.statusMessage === 'string' ? { statusMessage: step.statusMessage } : {}),
      });
    }
    const body = event.body as Record<string, unknown>;
    if (event.kind === 'pending' || event.kind === 'refusal') {
      args = body.arguments ?? body.proposedArguments ?? {};
      proposed =
        body.proposedArguments !== undefined && body.arguments !== undefined
          ? body.proposedArguments
          : undefined;
    }
    if (event.kind === 'final') result = body.result;
  }
  return {
    arguments: args,
    ...(proposed !== undefined ? { proposed } : {}),
    ...(result !== undefined ? { result } : {}),
    ...(taskSteps.length > 0 ? { taskSteps } : {}),
  };
}

function textBlocks(result: unknown): string[] {
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return [];
  return content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        block?.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text);
}

function pretty(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? '';
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

function ownClick(decision: NonNullable<AuditEntry['decision']>): boolean {
  return decision.source.kind === 'default' && decision.source.reason === 'person-started';
}
