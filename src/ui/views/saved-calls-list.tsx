/**
 * The calls the person saved with a name (session/saved-calls.ts), listed per server: each runs
 * again through its tool's form (pre-filled, hidden values to fill) or is deleted.
 */

import { useSignal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { type PanelController, type SavedCall, savedCalls, serverNames } from '../../session/index.js';
import { ToolName } from '../components/tool-name.js';
import { RunAgainButton, type RunAgainHost } from './run-again.js';

export function SavedCallsList({ controller, host }: { controller: PanelController; host: RunAgainHost }) {
  const state = useSignal<{ calls?: SavedCall[]; error?: string }>({});
  // One store for the view's life: each opens the database lazily, on first use.
  const store = useMemo(() => savedCalls(), []);
  const load = () =>
    store.list().then(
      (calls) => {
        state.value = { calls };
      },
      (error: unknown) => {
        state.value = { error: error instanceof Error ? error.message : String(error) };
      },
    );
  useEffect(() => {
    void load();
  }, []);
  const { calls, error } = state.value;
  const names = serverNames(controller.servers.value);
  const servers = [...new Set((calls ?? []).map((call) => call.serverId))];
  return (
    <section class="tg-saved-calls" aria-labelledby="tg-saved-calls-heading">
      <h3 id="tg-saved-calls-heading">Saved calls</h3>
      {error && (
        <p class="tg-error" role="alert">
          {error}
        </p>
      )}
      {calls && calls.length === 0 && (
        <p class="tg-muted">None yet: “Save call” under a tool’s form keeps its arguments with a name.</p>
      )}
      {servers.map((serverId) => (
        <section key={serverId} aria-label={`Saved calls on ${names(serverId)}`}>
          <h4>{names(serverId)}</h4>
          <ul class="tg-saved-call-list">
            {calls!
              .filter((call) => call.serverId === serverId)
              .map((call) => (
                <li key={call.id} class="tg-saved-call tg-row" data-saved-call={call.name}>
                  <strong>{call.name}</strong> <ToolName name={call.toolName} />
                  <RunAgainButton host={host} controller={controller} call={call} />
                  <button
                    type="button"
                    aria-label={`Delete saved call ${call.name}`}
                    onClick={() => {
                      void store.remove(call.id).then(load, (failure: unknown) => {
                        state.value = { ...state.value, error: String(failure) };
                      });
                    }}
                  >
                    Delete
                  </button>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
