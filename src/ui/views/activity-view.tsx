/** Calls in flight (progress, elapsed time against the timeout, cancel) and recent results. */

import { useSignal, useSignalEffect } from '@preact/signals';
import { AppFrame } from '../../apps/app-frame.js';
import { ResultView } from '../components/result-view.js';
import type { PanelController, RunningCall } from '../controller.js';

export function ActivityView({ controller }: { controller: PanelController }) {
  const running = controller.running.value;
  const finished = controller.finished.value;
  return (
    <section class="tg-view" aria-labelledby="tg-activity-heading">
      <h2 id="tg-activity-heading">Activity</h2>
      {running.length === 0 && finished.length === 0 && <p class="tg-muted">No calls yet.</p>}
      {running.length > 0 && (
        <ul class="tg-running" aria-label="Running calls">
          {running.map((call) => (
            <RunningRow
              key={call.invocationId}
              call={call}
              onCancel={() => controller.cancel(call.invocationId)}
            />
          ))}
        </ul>
      )}
      <ul class="tg-finished" aria-label="Finished calls">
        {finished.map((call) => (
          <li key={call.invocationId} class="tg-finished-call" data-invocation={call.invocationId}>
            <h3>
              {call.toolName} <span class="tg-muted">on {call.serverId}</span>
            </h3>
            {call.outcome.ok ? (
              <>
                <ResultView
                  result={call.outcome.result.result}
                  source={{
                    server:
                      controller.servers.value.find((server) => server.id === call.serverId)?.label ??
                      call.serverId,
                    tool: call.toolName,
                  }}
                  {...(call.outcome.result.outputValidation
                    ? { outputValidation: call.outcome.result.outputValidation }
                    : {})}
                />
                {call.outcome.result.warnings.map((warning) => (
                  <p key={warning} class="tg-warning">
                    {warning}
                  </p>
                ))}
                <AppFrame controller={controller} call={call} />
              </>
            ) : (
              <p class="tg-error">{call.outcome.error}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function RunningRow({ call, onCancel }: { call: RunningCall; onCancel: () => void }) {
  const now = useSignal(Date.now());
  useSignalEffect(() => {
    const timer = setInterval(() => {
      now.value = Date.now();
    }, 250);
    return () => clearInterval(timer);
  });
  const elapsed = ((now.value - call.startedAt) / 1000).toFixed(1);
  const progress = call.progress;
  const label = `${call.toolName} progress`;
  return (
    <li class="tg-running-call" data-invocation={call.invocationId} aria-busy="true">
      <div class="tg-row">
        <span class="tg-spinner" aria-hidden="true" />
        <strong>{call.toolName}</strong>
        <span class="tg-muted">
          {call.sentAt
            ? `running ${elapsed} s (times out after ${Math.round(call.timeoutMs / 1000)} s without progress)`
            : 'waiting for approval'}
        </span>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {/* Indeterminate (no value) until the server reports progress; determinate once it gives a total. */}
      {progress?.total !== undefined ? (
        <progress aria-label={label} max={progress.total} value={progress.progress} />
      ) : (
        <progress aria-label={label} />
      )}
      {progress?.message && <p class="tg-muted">{progress.message}</p>}
    </li>
  );
}
