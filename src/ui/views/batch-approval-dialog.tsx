/**
 * Several calls a model proposed at once (the host's `runMany`), asked about in one dialog: each
 * call with who asks, why Toolgate asks, its arguments as editable JSON (validated live against its
 * tool's schema, hidden characters escaped), what changed in its definition, and its own Allow or
 * Deny. "Allow all" is offered only when every listed call may be allowed as it stands. Each answer
 * goes to its own call, so each is still decided, sent and recorded alone (one audit entry each).
 *
 * Safe defaults, as in the single dialog: every call starts at Deny, Escape denies them all, Enter in
 * a field approves nothing, and arguments that could not be checked need their own acknowledgement.
 */

import { type Signal, useSignal } from '@preact/signals';
import { describeCaller, type ValidationReport } from '../../gate/index.js';
import type { JsonObject } from '../../protocol/index.js';
import type { PendingApproval } from '../../session/index.js';
import { escapeHiddenInJson } from '../components/hidden-characters.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { APPROVED_UNCHECKED_IN_DIALOG, DECIDED_IN_DIALOG } from './approver-words.js';
import { DefinitionChangeView } from './definition-change-view.js';

const BATCH_CSS =
  '.tg-batch{list-style:none;margin:0;padding:0;display:grid;gap:var(--tg-s3)}.tg-batch>li{border:1px solid var(--tg-border);border-radius:6px;padding:var(--tg-s2) var(--tg-s3)}.tg-batch h3{margin:0 0 var(--tg-s1)}.tg-batch textarea{width:100%;box-sizing:border-box}.tg-batch .tg-choice{border:0;padding:0;margin:var(--tg-s2) 0 0;display:flex;gap:var(--tg-s3)}';

/** What the person did to one call of the batch so far. */
interface Row {
  args: JsonObject;
  text: string;
  problem: string;
  validation: ValidationReport;
  acknowledged: boolean;
  choice: 'allow' | 'deny';
  /** Edits validate asynchronously: only the latest edit's report may land. */
  round: number;
}

const asJsonText = (value: JsonObject) => escapeHiddenInJson(JSON.stringify(value, null, 2));

function initialRow(pending: PendingApproval): Row {
  const { request } = pending;
  return {
    args: request.arguments,
    text: asJsonText(request.arguments),
    problem: '',
    validation: request.validation,
    acknowledged: false,
    choice: 'deny',
    round: 0,
  };
}

function isEdited(pending: PendingApproval, row: Row): boolean {
  return JSON.stringify(row.args) !== JSON.stringify(pending.request.arguments);
}

/** Why a row's arguments cannot be checked, when they cannot (the person must acknowledge it). */
function uncheckedReason(pending: PendingApproval, row: Row): string | undefined {
  const { request } = pending;
  if (row.validation.status === 'skipped') return row.validation.reason;
  if (request.requiresAcknowledgement && !isEdited(pending, row))
    return request.validation.status === 'skipped' ? request.validation.reason : 'validation could not run';
  return undefined;
}

function canAllow(pending: PendingApproval, row: Row): boolean {
  if (row.problem) return false;
  return uncheckedReason(pending, row) === undefined
    ? row.validation.status === 'valid'
    : row.acknowledged && row.validation.status !== 'invalid';
}

export function BatchApprovalDialog({ items }: { items: readonly PendingApproval[] }) {
  const rows = useSignal<Record<string, Row>>({});
  const first = items[0]!.request;
  const titleId = `tg-batch-title-${first.batch?.id ?? first.invocationId}`;
  const rowOf = (pending: PendingApproval) => rows.value[pending.request.invocationId] ?? initialRow(pending);
  const update = (pending: PendingApproval, change: Partial<Row>) => {
    const id = pending.request.invocationId;
    rows.value = { ...rows.value, [id]: { ...rowOf(pending), ...change } };
  };
  const everyAllowable = items.every((pending) => canAllow(pending, rowOf(pending)));

  const answer = (pending: PendingApproval, choice: 'allow' | 'deny') => {
    const row = rowOf(pending);
    if (choice === 'deny' || !canAllow(pending, row)) {
      pending.answer({ action: 'deny', reason: 'denied in a batch', decidedBy: DECIDED_IN_DIALOG });
      return;
    }
    const unchecked = uncheckedReason(pending, row) !== undefined;
    pending.answer({
      action: 'allow',
      remember: 'once',
      ...(isEdited(pending, row) ? { arguments: row.args } : {}),
      ...(unchecked ? { acknowledgedUnchecked: true } : {}),
      decidedBy: unchecked ? APPROVED_UNCHECKED_IN_DIALOG : DECIDED_IN_DIALOG,
    });
  };
  const settle = (choose: (pending: PendingApproval) => 'allow' | 'deny') => {
    // Snapshot first: each answer takes its call off the queue (and out of `items`).
    for (const pending of [...items]) answer(pending, choose(pending));
  };

  const size = first.batch?.size ?? items.length;
  return (
    <ModalDialog
      titleId={titleId}
      class="tg-batch-dialog"
      onEscape={() => settle(() => 'deny')}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT')
          event.preventDefault();
      }}
    >
      <style>{BATCH_CSS}</style>
      <h2 id={titleId}>
        {items.length} {items.length === 1 ? 'call' : 'calls'} proposed at once
      </h2>
      <p>
        Asked by {describeCaller(first.caller)}.{' '}
        {items.length < size
          ? `${items.length} of the ${size} calls need your answer; your rules and approvals decided the others.`
          : 'Each call is allowed or denied on its own, and recorded on its own.'}
      </p>
      <ol class="tg-batch">
        {items.map((pending, index) => (
          <BatchRow
            key={pending.request.invocationId}
            pending={pending}
            position={index + 1}
            row={rowOf(pending)}
            rows={rows}
            update={(change) => update(pending, change)}
          />
        ))}
      </ol>
      <div class="tg-actions">
        <button type="button" class="tg-deny" onClick={() => settle(() => 'deny')}>
          Deny all
        </button>
        <button type="button" disabled={!everyAllowable} onClick={() => settle(() => 'allow')}>
          Allow all
        </button>
        <button type="button" class="tg-primary" onClick={() => settle((pending) => rowOf(pending).choice)}>
          Confirm these choices
        </button>
      </div>
      {!everyAllowable && (
        <p class="tg-muted">
          “Allow all” needs every call’s arguments to be valid (or acknowledged as unchecked).
        </p>
      )}
    </ModalDialog>
  );
}

function BatchRow({
  pending,
  position,
  row,
  rows,
  update,
}: {
  pending: PendingApproval;
  position: number;
  row: Row;
  rows: Signal<Record<string, Row>>;
  update: (change: Partial<Row>) => void;
}) {
  const { request } = pending;
  const id = request.invocationId;
  const tool = request.pinned.tool;
  const claims = request.annotations.claims;
  const allowable = canAllow(pending, row);
  const unchecked = uncheckedReason(pending, row);
  const label = `Call ${position}: ${tool.name} on ${request.serverLabel}`;

  const edit = async (text: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('the arguments must be a JSON object');
    } catch (error) {
      update({ text, problem: `Not valid JSON: ${(error as Error).message}`, choice: 'deny' });
      return;
    }
    const round = row.round + 1;
    // An acknowledgement was for the arguments as they were; a change needs a new one.
    update({ text, problem: '', args: parsed as JsonObject, acknowledged: false, round });
    const report = await request.validate(parsed as JsonObject);
    const latest = rows.value[id];
    if (latest?.round === round) rows.value = { ...rows.value, [id]: { ...latest, validation: report } };
  };

  return (
    <li data-invocation={id}>
      <h3>{label}</h3>
      <p>{request.decision.reason}</p>
      {(claims.destructiveHint === true || claims.openWorldHint === true) && (
        <p class="tg-warning">
          {claims.destructiveHint === true ? 'This tool says it may destroy things. ' : ''}
          {claims.openWorldHint === true ? 'This tool says it reaches the outside world. ' : ''}
          {request.annotations.trusted ? '' : 'Toolgate does not trust this server, so it is only its word.'}
        </p>
      )}
      {request.definitionChange && (
        <DefinitionChangeView change={request.definitionChange} flags={request.poisoning} tool={tool} />
      )}
      <label for={`tg-batch-args-${id}`}>Arguments of {tool.name} (JSON)</label>
      <textarea
        id={`tg-batch-args-${id}`}
        class="tg-mono"
        rows={Math.min(8, row.text.split('\n').length + 1)}
        spellcheck={false}
        value={row.text}
        onInput={(event) => void edit((event.currentTarget as HTMLTextAreaElement).value)}
      />
      <div role="status" aria-live="polite" class="tg-validation">
        {row.problem ? (
          <p class="tg-error">{row.problem}</p>
        ) : row.validation.status === 'valid' ? (
          <p>Arguments match the tool’s schema{isEdited(pending, row) ? ' (edited)' : ''}.</p>
        ) : row.validation.status === 'invalid' ? (
          <ul class="tg-error">
            {row.validation.issues.map((issue) => (
              <li key={issue.path}>
                {issue.path}: {issue.message}
              </li>
            ))}
          </ul>
        ) : (
          <p class="tg-error">Cannot be checked: {row.validation.reason}</p>
        )}
      </div>
      {unchecked !== undefined && (
        <div class="tg-field-check">
          <input
            id={`tg-batch-ack-${id}`}
            type="checkbox"
            checked={row.acknowledged}
            onChange={(event) => update({ acknowledged: event.currentTarget.checked })}
          />
          <label for={`tg-batch-ack-${id}`}>
            I understand these arguments could not be checked against the tool’s schema ({unchecked})
          </label>
        </div>
      )}
      <fieldset class="tg-choice">
        <legend class="tg-visually-hidden">{label}</legend>
        <label>
          <input
            type="radio"
            name={`tg-batch-choice-${id}`}
            checked={row.choice === 'deny'}
            onChange={() => update({ choice: 'deny' })}
          />{' '}
          Deny
        </label>
        <label>
          <input
            type="radio"
            name={`tg-batch-choice-${id}`}
            checked={row.choice === 'allow' && allowable}
            disabled={!allowable}
            onChange={() => update({ choice: 'allow' })}
          />{' '}
          Allow
        </label>
      </fieldset>
    </li>
  );
}
