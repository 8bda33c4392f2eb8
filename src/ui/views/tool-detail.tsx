/**
 * The selected tool in full: the description never cut without a way to expand, poisoning flags,
 * the form to call it (through the gate, like every call) with the call's progress and result right
 * under it, then what the server claims about the tool in the tool list's words ("Destructive (the
 * server's claim)"), an on/off switch and the schemas. The form comes first because calling is what
 * people open a tool for; the heading takes focus when the tool is picked, so the form is one Tab
 * away.
 *
 * The form is checked against the tool's schema as the person types (each field marked with its
 * message); Call with something to fix sends nothing and records nothing: it shows every problem
 * and focuses the first. The press on Call is the person's approval of the call (the gate's
 * one-consent rule, gate/own-call.ts). Ctrl/Cmd+Enter anywhere in the form presses Call; a plain
 * Enter in a field does not, so a stray key never runs a tool.
 */

import { useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { toolNameProblem } from '../../client/index.js';
import { detectPoisoning, revealInvisible } from '../../gate/index.js';
import type { JsonObject } from '../../protocol/index.js';
import { type SchemaIssue, sharedSchemaValidator, type ValidationReport } from '../../schema/index.js';
import { type PanelController, serverNames } from '../../session/index.js';
import { CallResult, ResultSummary, resultKind, serverTimeOf } from '../components/call-result.js';
import { plainFailure } from '../components/call-words.js';
import { JsonTree } from '../components/json-tree.js';
import { SchemaForm, withDefaults } from '../components/schema-form.js';
import { ToolMarks, toolMarks } from '../components/tool-marks.js';
import { callFromForm, type FormCall, type PanelViewState, phaseOf } from '../view-state.js';
import { SaveCall } from './save-call.js';
import type { Row } from './tools-view.js';

export function ToolDetail({
  row,
  controller,
  views,
}: {
  row: Row;
  controller: PanelController;
  views: PanelViewState;
}) {
  const { server, tool } = row;
  const flags = useMemo(() => detectPoisoning(tool), [tool]);
  const args = useSignal<JsonObject>(
    views.drafts.get(row.key) ?? withDefaults(tool.inputSchema as JsonObject, {}),
  );
  const expanded = useSignal(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const description = revealInvisible(tool.description ?? '');
  const long = description.length > 400;
  const enabled = !server.disabled.has(tool.name);
  const marks = toolMarks(tool.annotations, true);
  const nameProblem = toolNameProblem(tool.name);
  const twins = server.tools.filter((other) => other.name === tool.name).length;
  const serverName = serverNames(controller.servers.value)(server.id);
  const formCall = views.formCalls.value[row.key];
  const schema = tool.inputSchema as JsonObject;
  const report = useSignal<ValidationReport | undefined>(undefined);
  const showAllIssues = useSignal(false);
  /** Bumped when Call found problems: the first marked field takes focus once they are shown. */
  const focusProblem = useSignal(0);
  const validationRound = useRef(0);
  const form = useRef<HTMLFormElement>(null);
  const callable = enabled && server.state === 'connected';
  const issues: readonly SchemaIssue[] = report.value?.status === 'invalid' ? report.value.issues : [];
  const problemCount = new Set(issues.map((issue) => issue.path)).size;
  const statusId = `tg-try-status-${server.id}-${tool.name}`.replace(/\s+/g, '_');

  /** Checks `value` against the schema; only the latest check's report lands. */
  const check = async (value: JsonObject): Promise<ValidationReport | undefined> => {
    const round = ++validationRound.current;
    let next: ValidationReport | undefined;
    try {
      next = await sharedSchemaValidator().validate(schema, value);
    } catch {
      // A validator that fails leaves the check to the gate, which refuses what it cannot check.
      next = undefined;
    }
    if (round === validationRound.current) report.value = next;
    return next;
  };

  useEffect(() => {
    void check(args.value);
  }, []);

  useEffect(() => {
    if (focusProblem.value === 0) return;
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (first ?? form.current?.querySelector<HTMLElement>(`#${CSS.escape(statusId)}`))?.focus();
  }, [focusProblem.value]);

  useEffect(() => {
    // Picked just now (not shown again on returning to the tab): bring it into view and focus it.
    if (!views.focusToolDetail.value) return;
    views.focusToolDetail.value = false;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, []);

  const run = async (event: Event) => {
    event.preventDefault();
    if (!callable) return;
    const value = args.value;
    // Checked again now: the report on screen may be one keystroke behind what will be sent.
    const checked = await check(value);
    // JSON still being typed is not in the value yet: the call waits for it too.
    const unparsed = form.current?.querySelector('.tg-json-problem') != null;
    if (checked?.status === 'invalid' || unparsed) {
      // Nothing leaves, so nothing is recorded: the person fixes the form first.
      showAllIssues.value = true;
      focusProblem.value++;
      return;
    }
    views.toFill.delete(row.key);
    callFromForm(views, controller, row.key, server.id, tool.name, value);
  };
  const toFill = views.toFill.get(row.key);

  return (
    <article class="tg-tool-detail" aria-labelledby="tg-tool-detail-title">
      <h3 id="tg-tool-detail-title" ref={heading} tabIndex={-1}>
        {tool.title ?? tool.name}
      </h3>
      <p class="tg-muted tg-wrap">
        <code>{tool.name}</code> on {serverName}
      </p>
      {(nameProblem || twins > 1) && (
        <ul class="tg-warning" aria-label="Problems with this tool's listing">
          {nameProblem && <li>This name breaks the MCP naming rules: {nameProblem}.</li>}
          {twins > 1 && (
            <li>
              {serverName} lists {twins} tools with this name; Toolgate refuses calls to it while their
              definitions differ.
            </li>
          )}
        </ul>
      )}
      {flags.length > 0 && (
        <ul class="tg-flags" aria-label="Warnings about this tool's text">
          {flags.map((flag) => (
            <li key={`${flag.field}-${flag.kind}`} class="tg-flag">
              {flag.field}: {flag.detail}
            </li>
          ))}
        </ul>
      )}
      <p class="tg-description">{long && !expanded.value ? `${description.slice(0, 400)}…` : description}</p>
      {long && (
        <button
          type="button"
          onClick={() => {
            expanded.value = !expanded.value;
          }}
        >
          {expanded.value ? 'Show less' : 'Show the whole description'}
        </button>
      )}
      <form
        ref={form}
        class="tg-try"
        onSubmit={(event) => void run(event)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || event.isComposing) return;
          const target = event.target as HTMLElement;
          if (event.ctrlKey || event.metaKey) {
            event.preventDefault();
            form.current?.requestSubmit();
          } else if (target.tagName === 'INPUT' && (target as HTMLInputElement).type !== 'checkbox')
            // A plain Enter in a field would submit the form: the call runs only on purpose.
            event.preventDefault();
        }}
      >
        <h4>Call it</h4>
        {toFill && toFill.length > 0 && (
          <p class="tg-warning tg-to-fill">
            Run again: fill in what was hidden before the call was kept ({toFill.join(', ')}); secrets are
            never stored, so they are not filled in for you.
          </p>
        )}
        <SchemaForm
          schema={schema}
          value={args.value}
          idPrefix={`tg-try-${server.id}-${tool.name}`}
          issues={issues}
          showAllIssues={showAllIssues.value}
          onChange={(next) => {
            args.value = next;
            views.drafts.set(row.key, next);
            void check(next);
          }}
        />
        <button
          type="submit"
          disabled={!callable}
          aria-disabled={callable && problemCount > 0 ? 'true' : undefined}
          aria-describedby={callable && problemCount > 0 ? statusId : undefined}
          aria-keyshortcuts="Control+Enter Meta+Enter"
        >
          Call {tool.title ?? tool.name}
        </button>
        {callable && problemCount > 0 && (
          <p id={statusId} class="tg-muted tg-try-waiting" tabIndex={-1}>
            Fix {problemCount} field{problemCount === 1 ? '' : 's'} to call
            {issues.some((issue) => issue.path === '(root)')
              ? `: ${issues
                  .filter((issue) => issue.path === '(root)')
                  .map((issue) => `the arguments ${issue.message}`)
                  .join('; ')}`
              : ''}
            .
          </p>
        )}
        {!enabled && <p class="tg-muted">Switched off: turn it on below to call it.</p>}
        {enabled && server.state !== 'connected' && (
          <p class="tg-muted">{serverName} is not connected: see the Servers tab.</p>
        )}
        {formCall && (
          <CallOutcome
            call={formCall}
            controller={controller}
            serverName={serverName}
            onCopyToForm={(sent) => {
              args.value = sent;
              views.drafts.set(row.key, sent);
            }}
          />
        )}
      </form>
      <SaveCall serverId={server.id} toolName={tool.name} args={args.value} />
      {marks.length > 0 && (
        <p class="tg-badges" data-marks>
          <ToolMarks marks={marks} claimShown={true} />
        </p>
      )}
      <label class="tg-row">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) =>
            void controller.setToolEnabled(
              server.id,
              tool.name,
              (e.currentTarget as HTMLInputElement).checked,
            )
          }
        />
        Enabled (switched-off tools are refused by the gate)
      </label>
      <details>
        <summary>Input schema</summary>
        <JsonTree value={tool.inputSchema} />
      </details>
      {tool.outputSchema && (
        <details>
          <summary>Output schema</summary>
          <JsonTree value={tool.outputSchema} />
        </details>
      )}
    </article>
  );
}

/**
 * The form's last call: where it is (approval, running with progress), then how it ended, with the
 * server's time apart from the total since the Call button was pressed, and its result in place.
 */
function CallOutcome({
  call,
  controller,
  serverName,
  onCopyToForm,
}: {
  call: FormCall;
  controller: PanelController;
  serverName: string;
  onCopyToForm: (sent: JsonObject) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const state = phaseOf(call, controller);
  // A result lands below the form: bring it into view (once per change of phase, not per render).
  useEffect(() => {
    if (state.phase === 'done') box.current?.scrollIntoView({ block: 'nearest' });
  }, [state.phase]);
  const outcome = call.outcome;
  const totalMs = call.finishedAt !== undefined ? call.finishedAt - call.startedAt : undefined;
  // A failed call: how it failed (its kind) and its time at the server, from the controller's record.
  const failure =
    outcome?.ok === false && call.invocationId
      ? controller.finished.value.find((item) => item.invocationId === call.invocationId)
      : undefined;
  return (
    <div ref={box} class="tg-call-outcome" data-phase={state.phase}>
      <p role="status" class="tg-call-phase">
        {state.phase === 'checking' && 'Checking the arguments and the policy…'}
        {state.phase === 'approval' && 'Waiting for approval: answer the dialog.'}
        {/* The form's calls are the person's own: their click (or their answer) approved it already. */}
        {state.phase === 'running' &&
          `Running on ${serverName}${state.progress?.message ? `: ${state.progress.message}` : '…'}`}
        {outcome?.ok === true && (
          <ResultSummary
            kind={resultKind(outcome.result)}
            serverMs={serverTimeOf(outcome.result)}
            totalMs={totalMs}
          />
        )}
        {outcome?.ok === false && (
          <>
            <ResultSummary
              kind={resultKind({
                errorKind: failure?.outcome.ok === false ? failure.outcome.kind : undefined,
              })}
              serverMs={failure?.sentAt !== undefined ? failure.finishedAt - failure.sentAt : undefined}
              totalMs={totalMs}
            />
            . {failure ? plainFailure(failure) : outcome.error}
          </>
        )}
      </p>
      {state.phase === 'running' &&
        (state.progress?.total !== undefined ? (
          <progress
            aria-label={`${call.toolName} progress`}
            max={state.progress.total}
            value={state.progress.progress}
          />
        ) : (
          <progress aria-label={`${call.toolName} progress`} />
        ))}
      {outcome?.ok === true && (
        <CallResult
          result={outcome.result}
          source={{ server: serverName, tool: call.toolName }}
          onCopyToForm={onCopyToForm}
          {...(controller.readResource
            ? { readResource: (uri: string) => controller.readResource!(call.serverId, uri) }
            : {})}
        />
      )}
    </div>
  );
}
