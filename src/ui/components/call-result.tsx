/**
 * A call's result made usable: how it ended said with an icon and a word (never colour alone), the
 * server's time apart from the total (which includes the wait for the person's approval), the
 * result Rendered or as Raw JSON (indented by two spaces), Copy for the result and for the arguments
 * sent, and, when the approver edited the arguments, what changed with "Copy to form".
 */

import { useSignal } from '@preact/signals';
import type { GateResult } from '../../gate/index.js';
import { type CallToolResult, type JsonObject, redactSecrets } from '../../protocol/index.js';
import { argumentChanges } from './argument-diff.js';
import { duration } from './call-words.js';
import { CopyButton } from './copy-button.js';
import { LongText } from './long-text.js';
import type { ResourceReader } from './resource-contents.js';
import { prettyJson, ResultView } from './result-view.js';

/** How a call ended, as its mark says it. */
type ResultKind = 'succeeded' | 'error' | 'failed' | 'denied' | 'cancelled' | 'not-sent';

const MARKS: Record<ResultKind, { icon: string; word: string; tone: 'ok' | 'error' | 'neutral' }> = {
  succeeded: { icon: '✓', word: 'Succeeded', tone: 'ok' },
  // The tool ran and said it failed (isError): the server answered, the tool did not do its work.
  error: { icon: '✗', word: 'Error', tone: 'error' },
  // The call did not complete: the connection, the protocol or a timeout.
  failed: { icon: '✗', word: 'Failed', tone: 'error' },
  denied: { icon: '⊘', word: 'Denied', tone: 'neutral' },
  cancelled: { icon: '⊘', word: 'Cancelled', tone: 'neutral' },
  'not-sent': { icon: '⊘', word: 'Not sent', tone: 'neutral' },
};

/** Error kinds (ToolgateError.kind) of calls refused before anything was sent. */
const REFUSED_KINDS = new Set([
  'invalid-arguments',
  'unchecked-arguments',
  'definition-changed',
  'ambiguous-tool',
  'unknown-tool',
  'audit-unavailable',
]);

/** The mark for a call that ended with a result, or with an error of this kind. */
export function resultKind(
  outcome: { result: CallToolResult } | { errorKind: string | undefined },
): ResultKind {
  if ('result' in outcome) return outcome.result.isError === true ? 'error' : 'succeeded';
  const kind = outcome.errorKind ?? '';
  if (kind === 'denied') return 'denied';
  if (kind === 'cancelled') return 'cancelled';
  return REFUSED_KINDS.has(kind) ? 'not-sent' : 'failed';
}

/** "Succeeded · server 120 ms · total 1.3 s": the mark, then each time known. */
export function ResultSummary({
  kind,
  serverMs,
  totalMs,
}: {
  kind: ResultKind;
  serverMs?: number | undefined;
  totalMs?: number | undefined;
}) {
  const mark = MARKS[kind];
  return (
    <span class="tg-result-summary">
      <span class={`tg-mark tg-mark-${mark.tone}`} data-kind={kind}>
        <span aria-hidden="true">{mark.icon}</span> {mark.word}
      </span>
      {serverMs !== undefined && ` · server ${duration(serverMs)}`}
      {totalMs !== undefined && ` · total ${duration(totalMs)}`}
    </span>
  );
}

/** The server's time for a result: from the request leaving to its response arriving. */
export function serverTimeOf(result: GateResult): number | undefined {
  return result.timings ? result.timings.receivedAt - result.timings.sentAt : undefined;
}

export function CallResult({
  result,
  source,
  readResource,
  onCopyToForm,
}: {
  result: GateResult;
  /** The server (as the panel labels it) and tool the result came from. */
  source: { server: string; tool: string };
  readResource?: ResourceReader | undefined;
  /** Puts the arguments sent into the tool's form (offered when the approver edited them). */
  onCopyToForm?: ((sent: JsonObject) => void) | undefined;
}) {
  const view = useSignal<'rendered' | 'raw'>('rendered');
  const raw = () => JSON.stringify(result.result, null, 2);
  return (
    <div class="tg-call-result">
      <div class="tg-result-bar">
        {/* Two toggle buttons: the pressed one is the view shown below. */}
        <fieldset class="tg-segmented">
          <legend class="tg-visually-hidden">Show the result</legend>
          <button
            type="button"
            aria-pressed={view.value === 'rendered'}
            onClick={() => {
              view.value = 'rendered';
            }}
          >
            Rendered
          </button>
          <button
            type="button"
            aria-pressed={view.value === 'raw'}
            onClick={() => {
              view.value = 'raw';
            }}
          >
            Raw JSON
          </button>
        </fieldset>
        <CopyButton text={() => (view.value === 'raw' ? raw() : shownText(result.result))} />
        <CopyButton text={() => JSON.stringify(result.arguments, null, 2)}>Copy arguments</CopyButton>
      </div>
      {result.proposedArguments && (
        <EditedArguments
          proposed={result.proposedArguments}
          sent={result.arguments}
          onCopyToForm={onCopyToForm}
        />
      )}
      {view.value === 'raw' ? (
        <section class="tg-raw-json" aria-label="Raw JSON of the result">
          <LongText text={raw()} />
        </section>
      ) : (
        <ResultView
          result={result.result}
          source={source}
          {...(result.outputValidation ? { outputValidation: result.outputValidation } : {})}
          {...(readResource ? { readResource } : {})}
        />
      )}
    </div>
  );
}

/**
 * What Copy takes in the Rendered view: the text the person reads (JSON text indented as shown),
 * else the structured content; the Raw view copies the whole result as JSON.
 */
function shownText(result: CallToolResult): string {
  const content: unknown[] = Array.isArray(result.content) ? result.content : [];
  const texts = content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        typeof block === 'object' &&
        block !== null &&
        (block as { type?: unknown }).type === 'text' &&
        typeof (block as { text?: unknown }).text === 'string',
    )
    .map((block) => prettyJson(block.text));
  if (texts.length > 0) return texts.join('\n\n');
  return JSON.stringify(result.structuredContent ?? result, null, 2);
}

/** "Sent with arguments edited in approval": each change as field: old → new, secrets redacted. */
function EditedArguments({
  proposed,
  sent,
  onCopyToForm,
}: {
  proposed: JsonObject;
  sent: JsonObject;
  onCopyToForm: ((sent: JsonObject) => void) | undefined;
}) {
  const copied = useSignal(false);
  const changes = argumentChanges(redactSecrets(proposed).value, redactSecrets(sent).value);
  return (
    <section class="tg-edited">
      <h4>Sent with arguments edited in approval</h4>
      {changes.length > 0 ? (
        <ul class="tg-diff" aria-label="Changes made in approval">
          {changes.map((change) => (
            <li key={change.path}>
              <code>{change.path}</code>:{' '}
              <span class="tg-before">{'before' in change ? shown(change.before) : '(not given)'}</span> →{' '}
              <span class="tg-after">{'after' in change ? shown(change.after) : '(removed)'}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="tg-muted">The edit left every value as it was.</p>
      )}
      {onCopyToForm && (
        <p>
          <button
            type="button"
            onClick={() => {
              onCopyToForm(structuredClone(sent));
              copied.value = true;
            }}
          >
            Copy to form
          </button>{' '}
          <span aria-live="polite">{copied.value ? 'The form now holds the arguments sent.' : ''}</span>
        </p>
      )}
    </section>
  );
}

/** A value in the list of changes: JSON, cut at a length that keeps the list readable. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
