/**
 * A session's calls as a file, and a file of calls run again (session/replay-file.ts). Export saves
 * the finished calls, oldest first, arguments redacted. Load checks the file and names its first
 * problem (a bad file replaces nothing already loaded); each loaded call can go to its form (Run
 * again), and "Run each, asking" sends them one after another through the gate as the person's
 * calls not made from a form, so the gate's approval dialog asks about each before it is sent. A
 * call with hidden values is not sent that way: its form asks for them.
 */

import { type Signal, useSignal } from '@preact/signals';
import {
  type PanelController,
  parseReplayFile,
  type ReplayCall,
  replayFileOf,
  rerunDraft,
  serverNames,
} from '../../session/index.js';
import { ToolName } from '../components/tool-name.js';
import type { LoadedCalls } from '../view-state.js';
import { RunAgainButton, type RunAgainHost } from './run-again.js';

export function ReplayCalls({
  controller,
  host,
}: {
  controller: PanelController;
  host: RunAgainHost | undefined;
}) {
  const own = useSignal<LoadedCalls | undefined>(undefined);
  // Kept by the panel where it can: the loaded file outlives a trip to the Tools tab.
  const loaded: Signal<LoadedCalls | undefined> = host?.views.loadedCalls ?? own;
  const problem = useSignal('');
  const exported = useSignal('');
  const finished = controller.finished.value;
  const names = serverNames(controller.servers.value);
  const file = loaded.value;
  return (
    <section class="tg-replay" aria-labelledby="tg-replay-heading">
      <h3 id="tg-replay-heading">Calls file</h3>
      <p class="tg-muted">
        This session’s calls as a file to run again later or elsewhere (arguments redacted as the audit log
        keeps them); a loaded file’s calls each go through the gate again, and each is asked.
      </p>
      <div class="tg-row">
        <button
          type="button"
          disabled={finished.length === 0}
          onClick={() => {
            const name = saveFile(replayFileOf(finished, names));
            exported.value = `Saved ${finished.length} ${finished.length === 1 ? 'call' : 'calls'} as ${name}.`;
          }}
        >
          Export calls
        </button>
        <label>
          Load calls file{' '}
          <input
            type="file"
            accept="application/json,.json"
            onChange={(event) => {
              const input = event.currentTarget as HTMLInputElement;
              const chosen = input.files?.[0];
              input.value = '';
              if (!chosen) return;
              void chosen.text().then(
                (text) => {
                  const parsed = parseReplayFile(text);
                  if (!parsed.ok) {
                    problem.value = `${chosen.name} was not loaded: ${parsed.problem}`;
                    return;
                  }
                  problem.value = '';
                  loaded.value = {
                    name: chosen.name,
                    calls: parsed.file.calls,
                    status: parsed.file.calls.map(() => ''),
                  };
                },
                (error: unknown) => {
                  problem.value = `${chosen.name} could not be read: ${String(error)}`;
                },
              );
            }}
          />
        </label>
      </div>
      <p class="tg-muted" role="status">
        {exported.value}
      </p>
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
      {file && (
        <LoadedList
          file={file}
          loaded={loaded}
          controller={controller}
          host={host}
          labelOf={(call) =>
            controller.servers.value.some((s) => s.id === call.serverId)
              ? names(call.serverId)
              : (call.serverLabel ?? call.serverId)
          }
        />
      )}
    </section>
  );
}

function LoadedList({
  file,
  loaded,
  controller,
  host,
  labelOf,
}: {
  file: LoadedCalls;
  loaded: Signal<LoadedCalls | undefined>;
  controller: PanelController;
  host: RunAgainHost | undefined;
  labelOf: (call: ReplayCall) => string;
}) {
  const running = useSignal(false);
  const setStatus = (index: number, status: string) => {
    const current = loaded.value;
    // Another file was loaded meanwhile: this run's news is not about it.
    if (current?.calls !== file.calls) return;
    loaded.value = { ...current, status: current.status.map((old, at) => (at === index ? status : old)) };
  };
  const runEach = async () => {
    running.value = true;
    for (const [index, call] of file.calls.entries()) {
      if (loaded.value?.calls !== file.calls) break;
      const { draft, toFill } = rerunDraft(call.arguments);
      if (toFill.length > 0) {
        setStatus(index, `not sent: fill ${toFill.join(', ')} with Run again`);
        continue;
      }
      const server = controller.servers.value.find((s) => s.id === call.serverId);
      if (server?.state !== 'connected') {
        setStatus(index, 'not sent: its server is not connected');
        continue;
      }
      setStatus(index, 'asking…');
      try {
        // No `startedFrom`: this click was not about this call, so the gate asks about it.
        const result = await controller.call({
          serverId: call.serverId,
          toolName: call.toolName,
          arguments: draft,
        });
        setStatus(index, result.result.isError === true ? 'done: the tool reported an error' : 'done');
      } catch (error) {
        setStatus(index, `not done: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    running.value = false;
  };
  return (
    <section aria-label={`Loaded calls from ${file.name}`}>
      <p>
        {file.calls.length} {file.calls.length === 1 ? 'call' : 'calls'} from {file.name}{' '}
        <button
          type="button"
          disabled={running.value || file.calls.length === 0}
          onClick={() => void runEach()}
        >
          Run each, asking
        </button>{' '}
        <button
          type="button"
          disabled={running.value}
          onClick={() => {
            loaded.value = undefined;
          }}
        >
          Close file
        </button>
      </p>
      <ol class="tg-replay-list">
        {file.calls.map((call, index) => (
          <li key={index} class="tg-replay-call">
            <ToolName name={call.toolName} /> <span class="tg-muted">on {labelOf(call)}</span>{' '}
            <code class="tg-wrap">{JSON.stringify(call.arguments).slice(0, 200)}</code>{' '}
            {host && <RunAgainButton host={host} controller={controller} call={call} />}
            {file.status[index] && <span class="tg-muted"> {file.status[index]}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Downloads `body` as a dated JSON file; returns its name. */
function saveFile(body: unknown): string {
  const name = `toolgate-calls-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.json`;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
  link.download = name;
  link.click();
  // The download has started by now; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  return name;
}
