/**
 * For the people who debug servers: one server's log messages (`notifications/message`, with the
 * level asked for through `logging/setLevel` where the server speaks it) and its last JSON-RPC
 * messages both ways, each request paired with its response and its latency, filtered by method or
 * searched, each message copied and the exchange exported as a JSON file; secrets redacted as the
 * audit log redacts them.
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
import { type Exchange, messagesOf, methodOf, pairExchange } from './exchange.js';

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
          <Traffic
            key={`traffic-${server.id}`}
            entries={controller.traffic.value[server.id] ?? []}
            serverLabel={names(server.id)}
          />
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

/** The exchange as a JSON file: the messages as shown (redacted), oldest first, with when and which way. */
function exportExchange(serverLabel: string, entries: readonly TrafficEntry[]): string {
  const file = `toolgate-exchange-${serverLabel.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}-${new Date()
    .toISOString()
    .slice(0, 19)
    .replace(/:/g, '-')}.json`;
  const body = JSON.stringify(
    {
      server: serverLabel,
      exportedAt: new Date().toISOString(),
      messages: entries.map((entry) => ({
        at: new Date(entry.at).toISOString(),
        direction: entry.direction,
        message: redactSecrets(entry.message).value,
      })),
    },
    null,
    2,
  );
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([body], { type: 'application/json' }));
  link.download = file;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  return file;
}

function Traffic({ entries, serverLabel }: { entries: readonly TrafficEntry[]; serverLabel: string }) {
  const method = useSignal('');
  const search = useSignal('');
  const exported = useSignal('');
  const exchanges = pairExchange(entries);
  const methods = [...new Set(exchanges.map(methodOf).filter(Boolean))].sort();
  const needle = search.value.trim().toLowerCase();
  const shown = exchanges.filter(
    (exchange) =>
      (!method.value || methodOf(exchange) === method.value) &&
      (!needle ||
        messagesOf(exchange).some((entry) =>
          JSON.stringify(redactSecrets(entry.message).value)?.toLowerCase().includes(needle),
        )),
  );
  return (
    <section class="tg-inspect-part" aria-labelledby="tg-traffic-heading">
      <h3 id="tg-traffic-heading">JSON-RPC messages</h3>
      <p class="tg-muted">
        The last {TRAFFIC_KEPT} messages of this connection, each request with its response and the time
        between them, newest first; secrets are redacted as the audit log redacts them (by name, and by shape:
        tokens, Authorization headers, URL credentials).
      </p>
      <div class="tg-row">
        <label for="tg-traffic-method">Method</label>
        <select
          id="tg-traffic-method"
          value={method.value}
          onChange={(event) => {
            method.value = (event.currentTarget as HTMLSelectElement).value;
          }}
        >
          <option value="">All methods</option>
          {methods.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <label for="tg-traffic-search">Search</label>
        <input
          id="tg-traffic-search"
          type="search"
          value={search.value}
          onInput={(event) => {
            search.value = (event.currentTarget as HTMLInputElement).value;
          }}
        />
        <button
          type="button"
          disabled={entries.length === 0}
          onClick={() => {
            exported.value = `Saved ${entries.length} messages as ${exportExchange(serverLabel, entries)}.`;
          }}
        >
          Export exchange
        </button>
      </div>
      <p class="tg-muted" role="status">
        {exported.value}
      </p>
      {exchanges.length === 0 ? (
        <p class="tg-empty">No messages yet.</p>
      ) : shown.length === 0 ? (
        <p class="tg-empty">No messages match.</p>
      ) : (
        <ol class="tg-traffic" aria-label="JSON-RPC messages">
          {shown.map((exchange) => (
            <ExchangeLine key={messagesOf(exchange)[0]!.seq} exchange={exchange} />
          ))}
        </ol>
      )}
    </section>
  );
}

/** One exchange: its summary line (method, latency); its messages built only when opened. */
function ExchangeLine({ exchange }: { exchange: Exchange }) {
  const open = useSignal(false);
  const messages = messagesOf(exchange);
  const first = messages[0]!;
  return (
    <li
      class={`tg-traffic-line tg-${first.direction} tg-exchange-${exchange.kind}`}
      data-method={methodOf(exchange) || undefined}
    >
      <details
        onToggle={(event) => {
          open.value = (event.currentTarget as HTMLDetailsElement).open;
        }}
      >
        <summary>
          <span aria-hidden="true">{first.direction === 'sent' ? '→' : '←'}</span>{' '}
          <span class="tg-visually-hidden">{first.direction === 'sent' ? 'Sent' : 'Received'}: </span>
          <span class="tg-wrap">{summarize(first.message)}</span>{' '}
          {exchange.kind === 'pair' && (
            <span class="tg-badge tg-latency">
              {exchange.response
                ? `${summarize(exchange.response.message).startsWith('error') ? 'error' : 'answered'} in ${exchange.latencyMs} ms`
                : 'no response yet'}
            </span>
          )}{' '}
          <span class="tg-muted">{new Date(first.at).toLocaleTimeString()}</span>
        </summary>
        {open.value && messages.map((entry) => <MessageBody key={entry.seq} entry={entry} />)}
      </details>
    </li>
  );
}

function MessageBody({ entry }: { entry: TrafficEntry }) {
  const copied = useSignal('');
  const text = JSON.stringify(redactSecrets(entry.message).value, null, 2) ?? String(entry.message);
  const which = entry.direction === 'sent' ? 'Sent' : 'Received';
  return (
    <div class="tg-message">
      <div class="tg-row">
        <strong>{which}</strong>
        <span class="tg-muted">{new Date(entry.at).toLocaleTimeString()}</span>
        <button
          type="button"
          aria-label={`Copy ${which.toLowerCase()} message`}
          onClick={() => {
            void navigator.clipboard.writeText(text).then(
              () => {
                copied.value = 'Copied';
              },
              () => {
                copied.value = 'The browser did not allow copying: select the text instead.';
              },
            );
          }}
        >
          Copy
        </button>
        <span class="tg-muted" role="status">
          {copied.value}
        </span>
      </div>
      <LongText text={text} />
    </div>
  );
}
