/**
 * The confirm step. One pending approval at a time (the queue count is shown): who asks, which
 * tool on which server, the arguments as a form and as JSON (both editable, validated live against
 * the tool's schema), the definition diff when a pin broke, poisoning flags, and a stronger look for
 * destructive or open-world claims. Keyboard: focus starts on the dialog itself and is trapped in
 * it; Escape denies; Enter never approves unless the Allow button itself has focus.
 */

import { useSignal } from '@preact/signals';
import type { ApprovalAnswer, ValidationReport } from '../../gate/types.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { SchemaForm } from '../components/schema-form.js';
import type { PendingApproval } from '../controller.js';

export function ApprovalDialog({ pending, queued }: { pending: PendingApproval; queued: number }) {
  const { request } = pending;
  const args = useSignal<JsonObject>(request.arguments);
  const rawText = useSignal(JSON.stringify(request.arguments, null, 2));
  const rawProblem = useSignal('');
  const mode = useSignal<'form' | 'json'>('form');
  const validation = useSignal<ValidationReport>(request.validation);
  const reason = useSignal('');
  const tool = request.pinned.tool;
  const claims = request.annotations.claims;
  const risky = claims.destructiveHint === true || claims.openWorldHint === true;
  const edited = JSON.stringify(args.value) !== JSON.stringify(request.arguments);
  const titleId = `tg-approval-title-${request.invocationId}`;

  const revalidate = async (next: JsonObject) => {
    args.value = next;
    validation.value = await request.validate(next);
  };

  const answer = (value: ApprovalAnswer) => pending.answer(value);
  const allow = (remember: 'once' | 'session' | 'always') => {
    if (validation.value.status !== 'valid' || rawProblem.value) return;
    answer({
      action: 'allow',
      remember,
      ...(edited ? { arguments: args.value } : {}),
      decidedBy: 'person (panel)',
    });
  };
  const deny = () =>
    answer({
      action: 'deny',
      ...(reason.value.trim() ? { reason: reason.value.trim() } : {}),
      decidedBy: 'person (panel)',
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
      <h2 id={titleId}>
        Allow <code>{tool.title ?? tool.name}</code> on {request.serverLabel}?
      </h2>
      {queued > 1 && <p class="tg-muted">{queued - 1} more waiting</p>}
      <p>
        Asked by{' '}
        {request.caller.kind === 'mcp-app'
          ? 'an MCP App'
          : request.caller.kind === 'host'
            ? 'the app'
            : request.caller.kind === 'site'
              ? 'the web site'
              : 'you'}
        {request.caller.label ? ` (${request.caller.label})` : ''}. {request.decision.reason}
      </p>
      {risky && (
        <p class="tg-warning">
          {claims.destructiveHint ? 'This tool says it may delete or overwrite things. ' : ''}
          {claims.openWorldHint ? 'This tool says it reaches outside systems. ' : ''}
          {request.annotations.trusted ? '' : '(Claimed by an untrusted server.)'}
        </p>
      )}
      {request.poisoning.length > 0 && (
        <ul class="tg-flags" aria-label="Warnings about this tool's text">
          {request.poisoning.map((flag) => (
            <li key={`${flag.field}-${flag.kind}`}>
              {flag.field}: {flag.detail}
            </li>
          ))}
        </ul>
      )}
      {request.definitionChange && (
        <details open class="tg-diff">
          <summary>This tool changed since you last approved it</summary>
          <ul>
            {request.definitionChange.changes.map((line) => (
              <li key={line.field}>
                <strong>{line.field}</strong>
                {line.before !== undefined && <pre class="tg-before">− {line.before}</pre>}
                {line.after !== undefined && <pre class="tg-after">+ {line.after}</pre>}
              </li>
            ))}
          </ul>
        </details>
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
            rawText.value = JSON.stringify(args.value, null, 2);
            mode.value = 'json';
          }}
        >
          JSON
        </button>
      </fieldset>
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
        ) : validation.value.status === 'valid' ? (
          <p>Arguments match the tool’s schema{edited ? ' (edited)' : ''}.</p>
        ) : validation.value.status === 'invalid' ? (
          <ul class="tg-error">
            {validation.value.issues.map((issue) => (
              <li key={issue.path}>
                {issue.path}: {issue.message}
              </li>
            ))}
          </ul>
        ) : (
          <p class="tg-error">Cannot be checked: {validation.value.reason}</p>
        )}
      </div>
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
        <button type="button" class="tg-deny" onClick={deny}>
          Deny
        </button>
        <button
          type="button"
          class="tg-allow"
          disabled={validation.value.status !== 'valid' || !!rawProblem.value}
          onClick={() => allow('once')}
        >
          Allow once
        </button>
        <button
          type="button"
          disabled={validation.value.status !== 'valid' || !!rawProblem.value}
          onClick={() => allow('session')}
        >
          Allow for this session
        </button>
        <button
          type="button"
          disabled={validation.value.status !== 'valid' || !!rawProblem.value}
          onClick={() => allow('always')}
        >
          Always allow this tool
        </button>
      </div>
    </ModalDialog>
  );
}
