/**
 * For the people who debug servers: one server's log messages (`notifications/message`, with the
 * level asked for through `logging/setLevel` where the server speaks it) and its last JSON-RPC
 * messages both ways, secrets redacted as the audit log redacts them.
 */

import { useSignal } from '@preact/signals';
import { redactSecrets } from '../../protocol/index.js';
import {
  LOG_LEVELS,
  type PanelController,
  type ServerLogEntry,
  type ServerState,
  serverNames,
  summarize,
  TRAFFIC_KEPT,
  type TrafficEntry,
} from '../../session/index.js';
import { LongText } from '../components/long-text.js';

export function InspectView({ controller }: { controller: PanelController }) {
  const chosen = useSignal<string | undefined>(undefined);
  const servers = controller.servers.value;
  const names = serverNames(servers);
  if (!controller.serverLog || !controller.traffic)
    return (
      <section class="tg-view" aria-labelledby="tg-inspect-heading">
        <h2 id="tg-inspect-heading">Inspect</h2>
        <p class="tg-empty">
          The connections live in Toolgate’s background worker, so their messages are not shown in this panel.
        </p>
      </section>
    );
  const server = servers.find((item) => item.id === chosen.value) ?? servers[0];
  return (
    <section class="tg-view" aria-labelledby="tg-inspect-heading">
      <h2 id="tg-inspect-heading">Inspect</h2>
      {!server ? (
        <p class="tg-empty">No servers yet: add one in the Servers tab to see its messages here.</p>
      ) : (
        <>
          <div class="tg-row">
            <label for="tg-inspect-server">Server</label>
            <select
              id="tg-inspect-server"
              value={server.id}
              onChange={(event) => {
                chosen.value = (event.currentTarget as HTMLSelectElement).value;
              }}
            >
              {servers.map((item) => (
                <option key={item.id} value={item.id}>
                  {names(item.id)}
                </option>
              ))}
            </select>
          </div>
          <ServerLog
            key={`log-${server.id}`}
            server={server}
            entries={controller.serverLog.value[server.id] ?? []}
            controller={controller}
          />
          <Traffic key={`traffic-${server.id}`} entries={controller.traffic.value[server.id] ?? []} />
        </>
      )}
    </section>
  );
}

function ServerLog({
  server,
  entries,
  controller,
}: {
  server: ServerState;
  entries: readonly ServerLogEntry[];
  controller: PanelController;
}) {
  const shownFrom = useSignal(0);
  const minimum = useSignal<string>('debug');
  const problem = useSignal('');
  const rank = (level: string) => LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]);
  const visible = entries.filter(
    (entry, index) => index >= shownFrom.value && rank(entry.level) >= rank(minimum.value),
  );
  const canSetLevel =
    server.state === 'connected' &&
    server.offers?.logging === true &&
    server.era !== 'modern' &&
    controller.setLogLevel;
  return (
    <section class="tg-inspect-part" aria-labelledby="tg-server-log-heading">
      <h3 id="tg-server-log-heading">Log messages</h3>
      <p class="tg-muted">
        {server.offers?.logging === false
          ? 'This server did not declare logging: it should send no log messages.'
          : server.era === 'modern'
            ? 'A 2026-07-28 server sends log messages only within requests that ask for them; Toolgate does not ask, so few arrive.'
            : 'Messages the server sends with notifications/message, newest last.'}
      </p>
      <div class="tg-row">
        {canSetLevel && (
          <>
            <label for="tg-log-level">Ask the server for</label>
            <select
              id="tg-log-level"
              value={server.logLevel ?? ''}
              onChange={(event) => {
                const level = (event.currentTarget as HTMLSelectElement).value;
                problem.value = '';
                void controller.setLogLevel!(server.id, level).catch((error: unknown) => {
                  problem.value = `The server refused logging/setLevel: ${(error as Error).message}`;
                });
              }}
            >
              <option value="" disabled>
                (its default)
              </option>
              {LOG_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {level} and above
                </option>
              ))}
            </select>
          </>
        )}
        <label for="tg-log-show">Show</label>
        <select
          id="tg-log-show"
          value={minimum.value}
          onChange={(event) => {
            minimum.value = (event.currentTarget as HTMLSelectElement).value;
          }}
        >
          {LOG_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level} and above
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={visible.length === 0}
          onClick={() => {
            shownFrom.value = entries.length;
          }}
        >
          Clear
        </button>
      </div>
      {problem.value && (
        <p class="tg-error" role="alert">
          {problem.value}
        </p>
      )}
      {visible.length === 0 ? (
        <p class="tg-empty">No log messages{entries.length > 0 ? ' at this level' : ' yet'}.</p>
      ) : (
        <ol class="tg-log-lines" aria-label="Log messages">
          {visible.map((entry, index) => (
            <li
              key={`${entry.at}-${index}`}
              class={`tg-log-line tg-level-${rank(entry.level) >= 4 ? 'high' : 'low'}`}
            >
              <span class="tg-muted">{new Date(entry.at).toLocaleTimeString()}</span>{' '}
              <span class="tg-badge">{entry.level}</span>
              {entry.logger && <span class="tg-muted"> {entry.logger}</span>}{' '}
              <LogData data={redactSecrets(entry.data).value} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function LogData({ data }: { data: unknown }) {
  if (typeof data === 'string') return <span class="tg-wrap">{data}</span>;
  return <code class="tg-wrap">{JSON.stringify(data) ?? String(data)}</code>;
}

function Traffic({ entries }: { entries: readonly TrafficEntry[] }) {
  const newestFirst = [...entries].reverse();
  return (
    <section class="tg-inspect-part" aria-labelledby="tg-traffic-heading">
      <h3 id="tg-traffic-heading">JSON-RPC messages</h3>
      <p class="tg-muted">
        The last {TRAFFIC_KEPT} messages of this connection, newest first; secrets are redacted as the audit
        log redacts them (by name, and by shape: tokens, Authorization headers, URL credentials).
      </p>
      {newestFirst.length === 0 ? (
        <p class="tg-empty">No messages yet.</p>
      ) : (
        <ol class="tg-traffic" aria-label="JSON-RPC messages">
          {newestFirst.map((entry) => (
            <TrafficLine key={entry.seq} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}

/** One message: a summary line; its JSON is built only when opened (a tool list may be megabytes). */
function TrafficLine({ entry }: { entry: TrafficEntry }) {
  const open = useSignal(false);
  return (
    <li class={`tg-traffic-line tg-${entry.direction}`}>
      <details
        onToggle={(event) => {
          open.value = (event.currentTarget as HTMLDetailsElement).open;
        }}
      >
        <summary>
          <span aria-hidden="true">{entry.direction === 'sent' ? '→' : '←'}</span>{' '}
          <span class="tg-visually-hidden">{entry.direction === 'sent' ? 'Sent' : 'Received'}: </span>
          <span class="tg-wrap">{summarize(entry.message)}</span>{' '}
          <span class="tg-muted">{new Date(entry.at).toLocaleTimeString()}</span>
        </summary>
        {open.value && <LongText text={JSON.stringify(redactSecrets(entry.message).value, null, 2)} />}
      </details>
    </li>
  );
}
