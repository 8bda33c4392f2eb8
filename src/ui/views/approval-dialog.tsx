/**
 * The confirm step. One pending approval at a time (the queue count is shown): who asks, which
 * tool on which server (its name always, beside any title, and a title that imitates another tool's
 * name flagged), how long the gate still waits, the arguments as a form and as JSON (both
 * editable, validated live against the tool's schema, every proposed argument shown, hidden
 * characters escaped), the definition diff when a pin broke, poisoning flags, and a stronger look
 * for destructive or open-world claims.
 *
 * Safe defaults: focus starts on the dialog itself (or on Deny for a destructive or open-world tool,
 * where Deny is also the primary button) and is trapped in it; Escape denies; Enter never approves
 * unless an Allow button itself has focus. Arguments that could not be checked against the schema
 * can be allowed only after the person ticks that they understand it, and the answer says so.
 */

import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import {
  type ApprovalAnswer,
  describeCaller,
  type RememberScope,
  type ValidationReport,
} from '../../gate/index.js';
import type { JsonObject } from '../../protocol/index.js';
import type { PendingApproval } from '../../session/index.js';
import { escapeHiddenInJson, hiddenInValue, summarizeHidden } from '../components/hidden-characters.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { SchemaForm } from '../components/schema-form.js';
import type { NamedTool } from '../components/title-lookalike.js';
import { ToolMarks, toolMarks } from '../components/tool-marks.js';
import { ApprovalCountdown } from './approval-countdown.js';
import { APPROVED_UNCHECKED_IN_DIALOG, DECIDED_IN_DIALOG } from './approver-words.js';
import { whatDecided } from './decision-source-words.js';
import { DefinitionChangeView } from './definition-change-view.js';
import { ListingWarnings } from './listing-warnings.js';
import { OwnCallConfirmation } from './own-call-confirmation.js';
import { ToolHeading } from './tool-heading.js';
import { WiderAllow, type WiderChoice } from './wider-allow.js';

/** The arguments as JSON text, hidden characters written as escapes (parses back to the same value). */
const asJsonText = (value: JsonObject) => escapeHiddenInJson(JSON.stringify(value, null, 2));

interface ApprovalDialogProps {
  pending: PendingApproval;
  queued: number;
  /** Every tool of every connected server, to flag a title that is another tool's name. */
  tools?: readonly NamedTool[];
}

/**
 * The person's own call from a tool's form that still needs a yes gets one compact confirmation
 * (the gate marks it `ownCall`); every other call gets the full dialog.
 */
export function ApprovalDialog(props: ApprovalDialogProps) {
  return props.pending.request.ownCall ? (
    <OwnCallConfirmation pending={props.pending} queued={props.queued} />
  ) : (
    <FullApprovalDialog {...props} />
  );
}

function FullApprovalDialog({ pending, queued, tools = [] }: ApprovalDialogProps) {
  const { request } = pending;
  const args = useSignal<JsonObject>(request.arguments);
  const rawText = useSignal(asJsonText(request.arguments));
  const rawProblem = useSignal('');
  const mode = useSignal<'form' | 'json'>('form');
  const validation = useSignal<ValidationReport>(request.validation);
  const reason = useSignal('');
  const acknowledged = useSignal(false);
  /** Edits validate asynchronously: only the latest edit's report may land. */
  const validationRound = useRef(0);
  const denyButton = useRef<HTMLButtonElement>(null);
  const tool = request.pinned.tool;
  const claims = request.annotations.claims;
  const risky = claims.destructiveHint === true || claims.openWorldHint === true;
  // The tool list's marks, for the claims that call for care (even beside a read-only claim).
  const riskyMarks = toolMarks({ ...claims, readOnlyHint: false });
  const edited = JSON.stringify(args.value) !== JSON.stringify(request.arguments);
  const titleId = `tg-approval-title-${request.invocationId}`;
  const ackId = `tg-ack-${request.invocationId}`;

  // Why the arguments cannot be checked, when they cannot: the person must say they understand it.
  const current = validation.value;
  const uncheckedReason =
    current.status === 'skipped'
      ? current.reason
      : request.requiresAcknowledgement && !edited
        ? request.validation.status === 'skipped'
          ? request.validation.reason
          : 'validation could not run'
        : undefined;
  const canAllow =
    !rawProblem.value &&
    (uncheckedReason === undefined
      ? current.status === 'valid'
      : acknowledged.value && current.status !== 'invalid');
  const hidden = hiddenInValue(args.value);

  // ModalDialog focuses the dialog in its own effect, which runs before this parent's: Deny wins.
  useEffect(() => {
    if (risky) denyButton.current?.focus();
  }, []);

  const revalidate = async (next: JsonObject) => {
    args.value = next;
    // An acknowledgement was given for the arguments as they were; a change needs a new one.
    acknowledged.value = false;
    const round = ++validationRound.current;
    const report = await request.validate(next);
    if (round === validationRound.current) validation.value = report;
  };

  const answer = (value: ApprovalAnswer) => pending.answer(value);
  const allow = (remember: RememberScope, wider?: Omit<WiderChoice, 'remember'>) => {
    if (!canAllow) return;
    answer({
      action: 'allow',
      remember,
      ...wider,
      ...(edited ? { arguments: args.value } : {}),
      ...(uncheckedReason !== undefined ? { acknowledgedUnchecked: true } : {}),
      // The audit log records who approved; an approval of unchecked arguments says so there.
      decidedBy: uncheckedReason !== undefined ? APPROVED_UNCHECKED_IN_DIALOG : DECIDED_IN_DIALOG,
    });
  };
  const deny = () =>
    answer({
      action: 'deny',
      ...(reason.value.trim() ? { reason: reason.value.trim() } : {}),
      decidedBy: DECIDED_IN_DIALOG,
    });

  return (
    <ModalDialog
      titleId={titleId}
      {...(risky ? { class: 'tg-risky' } : {})}
      onEscape={deny}
      onKeyDown={(event) => {
        // Enter in a field must not submit anything; only a focused button acts on Enter.
        if (event.key === 'Enter' && (event.target as HTMLElement).tagName === 'INPUT')
          event.preventDefault();
      }}
    >
      <ToolHeading titleId={titleId} tool={tool} serverLabel={request.serverLabel} tools={tools} />
      {queued > 1 && <p class="tg-muted">{queued - 1} more waiting</p>}
      {request.deadline !== undefined && <ApprovalCountdown deadline={request.deadline} />}
      <p>
        Asked by {describeCaller(request.caller)}. {request.decision.reason}
      </p>
      <details class="tg-why">
        <summary>Why was I asked?</summary>
        <p>{whatDecided(request.decision, request.caller)}</p>
      </details>
      {risky && (
        <p class="tg-warning">
          <ToolMarks marks={riskyMarks} claimShown={true} />{' '}
          {riskyMarks.map((mark) => `This tool says it ${mark.says}. `).join('')}
          {request.annotations.trusted ? '' : 'Toolgate does not trust this server, so it is only its word.'}
        </p>
      )}
      <ListingWarnings warnings={request.listingWarnings} />
      {request.definitionChange ? (
        <DefinitionChangeView change={request.definitionChange} flags={request.poisoning} tool={tool} />
      ) : (
        request.poisoning.length > 0 && (
          <ul class="tg-flags" aria-label="Warnings about this tool's text">
            {request.poisoning.map((flag, index) => (
              <li key={index}>
                {flag.field}: {flag.detail}
              </li>
            ))}
          </ul>
        )
      )}
      <fieldset class="tg-tabs">
        <legend class="tg-visually-hidden">Arguments view</legend>
        <button type="button" aria-pressed={mode.value === 'form'} onClick={() => (mode.value = 'form')}>
          Form
        </button>
        <button
          type="button"
          aria-pressed={mode.value === 'json'}
          onClick={() => {
            rawText.value = asJsonText(args.value);
            mode.value = 'json';
          }}
        >
          JSON
        </button>
      </fieldset>
      {hidden.length > 0 && (
        <p class="tg-warning tg-hidden-summary">
          The arguments contain characters you would not see: {summarizeHidden(hidden)}. Both views show them
          escaped; they are sent exactly as proposed.
        </p>
      )}
      {mode.value === 'form' ? (
        <SchemaForm
          schema={tool.inputSchema as JsonObject}
          value={args.value}
          idPrefix={`tg-approve-${request.invocationId}`}
          onChange={(next) => void revalidate(next)}
        />
      ) : (
        <>
          <label for={`tg-raw-${request.invocationId}`}>Arguments as JSON</label>
          <textarea
            id={`tg-raw-${request.invocationId}`}
            class="tg-mono"
            rows={8}
            spellcheck={false}
            value={rawText.value}
            onInput={(event) => {
              rawText.value = (event.currentTarget as HTMLTextAreaElement).value;
              try {
                const parsed = JSON.parse(rawText.value) as unknown;
                if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
                  throw new Error('the arguments must be a JSON object');
                rawProblem.value = '';
                void revalidate(parsed as JsonObject);
              } catch (error) {
                rawProblem.value = `Not valid JSON: ${(error as Error).message}`;
              }
            }}
          />
        </>
      )}
      <div role="status" aria-live="polite" class="tg-validation">
        {rawProblem.value ? (
          <p class="tg-error">{rawProblem.value}</p>
        ) : current.status === 'valid' ? (
          <p>Arguments match the tool’s schema{edited ? ' (edited)' : ''}.</p>
        ) : current.status === 'invalid' ? (
          <ul class="tg-error">
            {current.issues.map((issue) => (
              <li key={issue.path}>
                {issue.path}: {issue.message}
              </li>
            ))}
          </ul>
        ) : (
          <p class="tg-error">Cannot be checked: {current.reason}</p>
        )}
      </div>
      {uncheckedReason !== undefined && (
        <div class="tg-field-check tg-acknowledge">
          <input
            id={ackId}
            type="checkbox"
            checked={acknowledged.value}
            onChange={(event) => {
              acknowledged.value = event.currentTarget.checked;
            }}
          />
          <label for={ackId}>
            I understand these arguments could not be checked against the tool’s schema ({uncheckedReason})
          </label>
        </div>
      )}
      <label for={`tg-deny-reason-${request.invocationId}`}>
        Reason if you deny (sent back to the caller)
      </label>
      <input
        id={`tg-deny-reason-${request.invocationId}`}
        type="text"
        value={reason.value}
        onInput={(event) => {
          reason.value = (event.currentTarget as HTMLInputElement).value;
        }}
      />
      <div class="tg-actions">
        <button
          ref={denyButton}
          type="button"
          class={risky ? 'tg-deny tg-primary' : 'tg-deny'}
          onClick={deny}
        >
          Deny
        </button>
        <button
          type="button"
          class={risky ? undefined : 'tg-allow'}
          disabled={!canAllow}
          onClick={() => allow('once')}
        >
          Allow once
        </button>
        <button type="button" disabled={!canAllow} onClick={() => allow('session')}>
          Allow for this session
        </button>
        <button type="button" disabled={!canAllow} onClick={() => allow('always')}>
          Always allow this tool
        </button>
      </div>
      <WiderAllow
        request={request}
        canAllow={canAllow}
        onAllow={({ remember, ...wider }) => allow(remember, wider)}
      />
    </ModalDialog>
  );
}
