/**
 * Calls in flight (progress, elapsed time against the timeout, cancel) and recent results, each with
 * what a person debugging it asks first: who called, with which arguments (secrets redacted exactly
 * as the audit log redacts them), when it started, how long it took, how its progress went and how
 * it ended. A call whose tool opens an MCP App links to it ("Show app"); the app itself lives in the
 * Apps tab, so it outlasts this view.
 */

import { useSignal, useSignalEffect } from '@preact/signals';
import { uiResourceUriOf } from '../../apps/index.js';
import { describeCaller } from '../../gate/index.js';
import { type JsonObject, redactSecrets } from '../../protocol/index.js';
import {
  type FinishedCall,
  type PanelController,
  type ProgressPoint,
  type RunningCall,
  type ServerNames,
  serverNames,
} from '../../session/index.js';
import { CallResult } from '../components/call-result.js';
import { duration, plainFailure } from '../components/call-words.js';
import { escapeHidden } from '../components/hidden-characters.js';
import { JsonTree } from '../components/json-tree.js';
import { ToolName, visibleToolName } from '../components/tool-name.js';
import type { PanelViewState } from '../view-state.js';
import { ReplayCalls } from './replay-calls.js';
import { RunAgainButton, type RunAgainHost } from './run-again.js';
import { SavedCallsList } from './saved-calls-list.js';

export function ActivityView({
  controller,
  onShowApp,
  views,
  onOpenTools,
}: {
  controller: PanelController;
  /** Shows the call's MCP App (absent where the panel shows no apps). */
  onShowApp?: ((invocationId: string) => void) | undefined;
  /** The Tools tab's remembered forms, and the way there: "Copy to form" fills one and opens it. */
  views?: PanelViewState | undefined;
  onOpenTools?: (() => void) | undefined;
}) {
  const running = controller.running.value;
  const finished = controller.finished.value;
  const names = serverNames(controller.servers.value);
  /** The "Show app" action for a call whose tool links an app, unless an app made the call. */
  /** The tool's title, when its server gives one that differs from its name (shown first). */
  const titleOf = (serverId: string, toolName: string) => {
    const title = controller.servers.value
      .find((server) => server.id === serverId)
      ?.tools.find((tool) => tool.name === toolName)
      ?.title?.trim();
    return title && title !== toolName ? title : undefined;
  };
  const showAppFor = (call: RunningCall | FinishedCall) => {
    if (!onShowApp || call.caller?.kind === 'mcp-app') return undefined;
    const tool = controller.servers.value
      .find((server) => server.id === call.serverId)
      ?.tools.find((candidate) => candidate.name === call.toolName);
    return tool && uiResourceUriOf(tool) ? () => onShowApp(call.invocationId) : undefined;
  };
  const host: RunAgainHost | undefined = views && onOpenTools ? { views, openTools: onOpenTools } : undefined;
  /** Puts arguments into the tool's form and opens it there, as if the person had typed them. */
  const copyToForm =
    views && onOpenTools
      ? (call: FinishedCall) => (sent: JsonObject) => {
          const key = `${call.serverId}/${call.toolName}`;
          views.drafts.set(key, sent);
          views.toolQuery.value = '';
          views.selectedTool.value = key;
          views.focusToolDetail.value = true;
          onOpenTools();
        }
      : undefined;
  return (
    <section class="tg-view" aria-labelledby="tg-activity-heading">
      <h2 id="tg-activity-heading">Activity</h2>
      {running.length === 0 && finished.length === 0 && (
        <p class="tg-empty">
          No calls yet. Calls made from the Tools tab, by this page’s app or by a site show up here while they
          run, then with their result.
        </p>
      )}
      {running.length > 0 && (
        <ul class="tg-running" aria-label="Running calls">
          {running.map((call) => (
            <RunningRow
              key={call.invocationId}
              call={call}
              names={names}
              title={titleOf(call.serverId, call.toolName)}
              asking={controller.approvals.value.some(
                (item) => item.request.invocationId === call.invocationId,
              )}
              signingIn={controller.signIns?.value.some((item) => item.serverId === call.serverId) ?? false}
              onCancel={() => controller.cancel(call.invocationId)}
              onShowApp={call.sentAt === undefined ? undefined : showAppFor(call)}
            />
          ))}
        </ul>
      )}
      {finished.length > 0 && (
        <ul class="tg-finished" aria-label="Finished calls">
          {finished.map((call) => (
            <FinishedRow
              key={call.invocationId}
              call={call}
              names={names}
              title={titleOf(call.serverId, call.toolName)}
              controller={controller}
              onShowApp={call.outcome.ok ? showAppFor(call) : undefined}
              onCopyToForm={copyToForm?.(call)}
              host={host}
            />
          ))}
        </ul>
      )}
      {host && <SavedCallsList controller={controller} host={host} />}
      <ReplayCalls controller={controller} host={host} />
    </section>
  );
}

const VERDICTS: Record<string, string> = {
  denied: 'denied',
  cancelled: 'cancelled',
  timeout: 'timed out',
  'invalid-arguments': 'refused',
  'unknown-tool': 'refused',
  'unchecked-arguments': 'refused',
};

/** A tool as Activity heads it: the server's title first when it has one, the real name beside it. */
function ToolTitled({ name, title }: { name: string; title: string | undefined }) {
  return (
    <>
      {title && <span class="tg-tool-title">{escapeHidden(title)}</span>} <ToolName name={name} />
    </>
  );
}

function FinishedRow({
  call,
  names,
  title,
  controller,
  onShowApp,
  onCopyToForm,
  host,
}: {
  call: FinishedCall;
  names: ServerNames;
  title: string | undefined;
  controller: PanelController;
  onShowApp: (() => void) | undefined;
  onCopyToForm: ((sent: JsonObject) => void) | undefined;
  /** Where "Run again" puts the call (absent where the panel has no Tools tab). */
  host: RunAgainHost | undefined;
}) {
  const server = names(call.serverId);
  const outcome = call.outcome;
  const verdict = outcome.ok
    ? outcome.result.result.isError === true
      ? 'tool error'
      : 'success'
    : outcome.cancelledInPanel
      ? 'cancelled'
      : (VERDICTS[outcome.kind] ?? 'failed');
  return (
    <li
      class={`tg-finished-call tg-verdict-${verdict.replace(' ', '-')}`}
      data-invocation={call.invocationId}
    >
      <h3 class="tg-wrap">
        <ToolTitled name={call.toolName} title={title} /> <span class="tg-muted">on {server}</span>{' '}
        <span class={`tg-badge ${verdict === 'success' ? 'tg-badge-ok' : 'tg-badge-danger'}`}>{verdict}</span>
      </h3>
      <CallFacts
        caller={call.caller ? describeCaller(call.caller) : undefined}
        startedAt={call.startedAt}
        sentAt={call.sentAt}
        finishedAt={call.finishedAt}
      />
      {call.arguments && <Arguments value={call.arguments} />}
      {host && (
        <p class="tg-row">
          <RunAgainButton
            host={host}
            controller={controller}
            call={{ serverId: call.serverId, toolName: call.toolName, arguments: call.arguments ?? {} }}
          />
        </p>
      )}
      {call.progressHistory && call.progressHistory.length > 0 && (
        <ProgressHistory
          points={call.progressHistory}
          startedAt={call.sentAt ?? call.startedAt ?? call.finishedAt}
        />
      )}
      {outcome.ok ? (
        <>
          <CallResult
            result={outcome.result}
            source={{ server, tool: call.toolName }}
            onCopyToForm={onCopyToForm}
            {...(controller.readResource
              ? { readResource: (uri: string) => controller.readResource!(call.serverId, uri) }
              : {})}
          />
          {outcome.result.warnings.map((warning) => (
            <p key={warning} class="tg-warning">
              {warning}
            </p>
          ))}
          {onShowApp && <ShowAppButton onShow={onShowApp} />}
        </>
      ) : (
        <p class={outcome.kind === 'cancelled' || outcome.cancelledInPanel ? 'tg-muted' : 'tg-error'}>
          {plainFailure(call, describeCaller)}
        </p>
      )}
    </li>
  );
}

/** Who, when, how long: the facts of a call in one definition list. */
function CallFacts({
  caller,
  startedAt,
  sentAt,
  finishedAt,
}: {
  caller: string | undefined;
  startedAt: number | undefined;
  sentAt: number | undefined;
  finishedAt: number;
}) {
  return (
    <dl class="tg-facts">
      {caller && (
        <>
          <dt>Asked by</dt>
          <dd>{caller}</dd>
        </>
      )}
      {startedAt !== undefined && (
        <>
          <dt>Started</dt>
          <dd>
            <time dateTime={new Date(startedAt).toISOString()}>
              {new Date(startedAt).toLocaleTimeString()}
            </time>
          </dd>
        </>
      )}
      {startedAt !== undefined && (
        <>
          <dt>Duration</dt>
          <dd>
            {duration(finishedAt - startedAt)}
            {sentAt !== undefined && sentAt - startedAt >= 1
              ? ` (${duration(finishedAt - sentAt)} at the server)`
              : ''}
            {sentAt === undefined ? ' (never sent)' : ''}
          </dd>
        </>
      )}
    </dl>
  );
}

/** The arguments as the audit log keeps them: secrets redacted by name and by shape. */
function Arguments({ value }: { value: JsonObject }) {
  const { value: shown, paths } = redactSecrets(value);
  const empty = Object.keys(shown).length === 0;
  return (
    <details class="tg-arguments" open={!empty && JSON.stringify(shown).length < 200}>
      <summary>
        Arguments{empty ? ' (none)' : ''}
        {paths.length > 0 ? ` · ${paths.length} redacted` : ''}
      </summary>
      {!empty && <JsonTree value={shown} />}
    </details>
  );
}

function ProgressHistory({ points, startedAt }: { points: readonly ProgressPoint[]; startedAt: number }) {
  return (
    <details class="tg-progress-history">
      <summary>
        Progress: {points.length} {points.length === 1 ? 'report' : 'reports'}
      </summary>
      <ol>
        {points.map((point, index) => (
          <li key={index}>
            <span class="tg-muted">+{duration(point.at - startedAt)}</span> {point.progress}
            {point.total !== undefined ? ` of ${point.total}` : ''}
            {point.message ? `: ${point.message}` : ''}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** A call the server runs as a task: its status and message, and when Toolgate asks again. */
function TaskLine({ task, now }: { task: NonNullable<RunningCall['task']>; now: number }) {
  const nextPoll =
    task.nextPollAt !== undefined ? Math.max(0, (task.nextPollAt - now) / 1000).toFixed(1) : undefined;
  return (
    <p class="tg-task-status" data-task={task.id}>
      <span class="tg-badge">{TASK_STATUS_WORDS[task.status] ?? task.status}</span>
      {task.statusMessage ? ` ${escapeHidden(task.statusMessage)}` : ''}
      {nextPoll !== undefined ? <span class="tg-muted"> · next check in {nextPoll} s</span> : ''}
      {task.resumed ? <span class="tg-muted"> · taken up again after a reload</span> : ''}
    </p>
  );
}

const TASK_STATUS_WORDS: Record<string, string> = {
  working: 'working',
  input_required: 'needs your input',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The link from a call to its app in the Apps tab. */
function ShowAppButton({ onShow }: { onShow: () => void }) {
  return (
    <button type="button" onClick={onShow}>
      Show app
    </button>
  );
}

function RunningRow({
  call,
  names,
  title,
  asking,
  signingIn,
  onCancel,
  onShowApp,
}: {
  call: RunningCall;
  names: ServerNames;
  title: string | undefined;
  /** Its approval dialog is waiting for the person. */
  asking: boolean;
  /** Its server asks the person to sign in (a sent call waits for that; its timeout is stopped). */
  signingIn: boolean;
  onCancel: () => void;
  onShowApp: (() => void) | undefined;
}) {
  const now = useSignal(Date.now());
  useSignalEffect(() => {
    const timer = setInterval(() => {
      now.value = Date.now();
    }, 250);
    return () => clearInterval(timer);
  });
  const elapsed = ((now.value - call.startedAt) / 1000).toFixed(1);
  const progress = call.progress;
  const label = `${visibleToolName(call.toolName)} progress`;
  return (
    <li class="tg-running-call" data-invocation={call.invocationId} aria-busy="true">
      <div class="tg-row">
        <span class="tg-spinner" aria-hidden="true" />
        <strong>
          <ToolTitled name={call.toolName} title={title} />
        </strong>
        <span class="tg-muted">on {names(call.serverId)}</span>
        <span class="tg-muted">
          {call.task
            ? `running as a task for ${elapsed} s`
            : call.sentAt && signingIn
              ? 'waiting for sign-in (its timeout waits too)'
              : call.sentAt
                ? `running ${elapsed} s (times out after ${Math.round(call.timeoutMs / 1000)} s without progress)`
                : asking
                  ? 'waiting for approval'
                  : 'being checked and recorded'}
        </span>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {onShowApp && <ShowAppButton onShow={onShowApp} />}
      </div>
      {/* Indeterminate (no value) until the server reports progress; determinate once it gives a total. */}
      {progress?.total !== undefined ? (
        <progress aria-label={label} max={progress.total} value={progress.progress} />
      ) : (
        <progress aria-label={label} />
      )}
      {progress?.message && <p class="tg-muted">{progress.message}</p>}
      {call.task && <TaskLine task={call.task} now={now.value} />}
      <CallFacts
        caller={describeCaller(call.caller)}
        startedAt={undefined}
        sentAt={undefined}
        finishedAt={now.value}
      />
      {call.arguments && <Arguments value={call.arguments} />}
    </li>
  );
}
