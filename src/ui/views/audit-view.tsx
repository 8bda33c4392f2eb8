/**
 * The audit log: newest first, filters (server, tool, outcome, time), free-text search, entry
 * detail with its chain events, verify, export with progress, and live updates from other tabs.
 */

import { useSignal, useSignalEffect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import {
  ALL_OUTCOMES,
  type AuditEntry,
  type AuditLog,
  type AuditPage,
  type AuditQuery,
  describeAnchorReport,
  type EntryOutcome,
  encodeCursor,
} from '../../audit/index.js';
import {
  type PanelController,
  type ServerNames,
  type ServerState,
  serverIdsNamed,
  serverNames,
} from '../../session/index.js';
import { JsonTree } from '../components/json-tree.js';
import { ToolName, visibleToolName } from '../components/tool-name.js';
import { downloadAuditLog } from './audit-download.js';
import { AuditExportStatus } from './audit-export-status.js';
import { AuditStorage } from './audit-storage.js';

export function AuditView({ controller }: { controller: PanelController }) {
  const state = useSignal<{ log?: AuditLog | undefined; error?: string; loaded: boolean }>({ loaded: false });
  useEffect(() => {
    let live = true;
    controller.ready.then(
      ({ auditLog }) => {
        if (live) state.value = { log: auditLog, loaded: true };
      },
      (error: unknown) => {
        if (live) state.value = { error: (error as Error).message, loaded: true };
      },
    );
    return () => {
      live = false;
    };
  }, [controller]);
  const { log, error, loaded } = state.value;
  if (!loaded)
    return (
      <p class="tg-muted" role="status">
        Opening the audit log…
      </p>
    );
  if (error)
    return (
      <p class="tg-error" role="alert">
        {error}
      </p>
    );
  if (!log) return <p class="tg-muted">This panel records calls in the host app’s own audit sink.</p>;
  return <AuditBrowser log={log} servers={controller.servers.value} />;
}

const PAGE = 50;

/**
 * One page of entries of any of `serverIds` (one id: the log's own query). Several ids (one label
 * shared by several servers): each id's page, merged newest first; the cursor is a position in the
 * log's one order, so it continues every id's list at once.
 */
async function queryServers(
  log: AuditLog,
  query: AuditQuery,
  serverIds: readonly string[],
): Promise<AuditPage> {
  if (serverIds.length <= 1) return log.query(serverIds[0] ? { ...query, serverId: serverIds[0] } : query);
  const pages = await Promise.all(serverIds.map((serverId) => log.query({ ...query, serverId })));
  const merged = pages
    .flatMap((page) => page.entries)
    .sort((a, b) => b.startedAt - a.startedAt || (a.invocationId < b.invocationId ? 1 : -1));
  const entries = merged.slice(0, query.limit ?? PAGE);
  const last = entries.at(-1);
  const more = merged.length > entries.length || pages.some((page) => page.cursor !== undefined);
  return { entries, ...(more && last ? { cursor: encodeCursor(last) } : {}) };
}

function AuditBrowser({ log, servers }: { log: AuditLog; servers: readonly ServerState[] }) {
  const names = serverNames(servers);
  const filters = useSignal<{
    serverId: string;
    toolName: string;
    outcome: string;
    text: string;
    from: string;
    to: string;
  }>({ serverId: '', toolName: '', outcome: '', text: '', from: '', to: '' });
  const entries = useSignal<AuditEntry[]>([]);
  const cursor = useSignal<string | undefined>(undefined);
  const counts = useSignal<Record<EntryOutcome, number> | undefined>(undefined);
  const selected = useSignal<AuditEntry | undefined>(undefined);
  const verifyText = useSignal('');
  const anchorText = useSignal('');
  const exportProgress = useSignal<number | undefined>(undefined);
  const loading = useSignal(false);
  const revision = useSignal(0);

  // The filter takes what the list shows ("Demo", "Demo (a.example/mcp)") or an id; the log stores ids.
  const serverIds = (): string[] => serverIdsNamed(filters.value.serverId, servers);
  const queryOf = (): AuditQuery => {
    const f = filters.value;
    return {
      limit: PAGE,
      ...(f.toolName ? { toolName: f.toolName } : {}),
      ...(f.outcome ? { outcome: f.outcome as EntryOutcome } : {}),
      ...(f.text ? { text: f.text } : {}),
      ...(f.from ? { from: new Date(f.from).getTime() } : {}),
      ...(f.to ? { to: new Date(f.to).getTime() } : {}),
    };
  };

  useSignalEffect(() => {
    void revision.value;
    const query = queryOf();
    const ids = serverIds();
    loading.value = true;
    void queryServers(log, query, ids).then((page) => {
      entries.value = page.entries;
      cursor.value = page.cursor;
      loading.value = false;
    });
    void log.countByOutcome().then((value) => {
      counts.value = value;
    });
  });
  // New entries from this tab or another one: reload the first page.
  useSignalEffect(() =>
    log.subscribe((change) => {
      if (change.type === 'appended' || change.type === 'pruned') revision.value++;
    }),
  );

  const more = async () => {
    if (!cursor.value) return;
    const page = await queryServers(log, { ...queryOf(), cursor: cursor.value }, serverIds());
    entries.value = [...entries.value, ...page.entries];
    cursor.value = page.cursor;
  };
  const verify = async () => {
    verifyText.value = 'Verifying…';
    anchorText.value = '';
    const result = await log.verify((checked, total) => {
      verifyText.value = `Verifying… ${checked} of ${total}`;
    });
    verifyText.value = result.ok
      ? `Chain verified: ${result.count} events, none altered.`
      : `Chain broken at event ${result.seq}${result.invocationId ? ` (invocation ${result.invocationId})` : ''}: ${result.reason}.`;
    // Whether the chain still passes through its last signed head (a rewrite of the whole chain
    // is only caught against a head the host shipped elsewhere: verify({ anchor })).
    anchorText.value = describeAnchorReport(result.anchor);
  };
  const download = async (format: 'ndjson' | 'json') => {
    try {
      await downloadAuditLog(log, format, (fraction) => {
        exportProgress.value = fraction;
      });
    } finally {
      exportProgress.value = undefined;
    }
  };
  const set = (key: keyof typeof filters.value) => (event: Event) => {
    filters.value = { ...filters.value, [key]: (event.currentTarget as HTMLInputElement).value };
  };

  return (
    <section class="tg-view" aria-labelledby="tg-log-heading">
      <h2 id="tg-log-heading">Audit log</h2>
      <AuditStorage log={log} />
      <AuditExportStatus log={log} />
      {counts.value && (
        <p class="tg-muted">
          Entries by outcome:{' '}
          {ALL_OUTCOMES.filter((outcome) => counts.value![outcome] > 0)
            .map((outcome) => `${outcome} ${counts.value![outcome]}`)
            .join(' · ') || 'empty'}
        </p>
      )}
      <form class="tg-filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search <input type="search" value={filters.value.text} onInput={set('text')} />
        </label>
        <label>
          Server{' '}
          <input type="text" list="tg-log-servers" value={filters.value.serverId} onInput={set('serverId')} />
        </label>
        <datalist id="tg-log-servers">
          {servers.map((server) => (
            <option key={server.id} value={names(server.id)} />
          ))}
        </datalist>
        <label>
          Tool <input type="text" value={filters.value.toolName} onInput={set('toolName')} />
        </label>
        <label>
          Outcome
          <select value={filters.value.outcome} onChange={set('outcome')}>
            <option value="">any</option>
            {ALL_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {outcome}
              </option>
            ))}
          </select>
        </label>
        <label>
          From <input type="datetime-local" value={filters.value.from} onInput={set('from')} />
        </label>
        <label>
          To <input type="datetime-local" value={filters.value.to} onInput={set('to')} />
        </label>
      </form>
      <div class="tg-row">
        <button type="button" onClick={() => void verify()}>
          Verify chain
        </button>
        <button type="button" onClick={() => void download('ndjson')}>
          Export NDJSON
        </button>
        <button type="button" onClick={() => void download('json')}>
          Export JSON
        </button>
      </div>
      {verifyText.value && (
        <p role="status" class="tg-verify">
          {verifyText.value}
        </p>
      )}
      {anchorText.value && <p class="tg-muted tg-anchor">{anchorText.value}</p>}
      {exportProgress.value !== undefined && (
        <progress aria-label="Export progress" max={1} value={exportProgress.value} />
      )}
      <table class="tg-log-table" aria-busy={loading.value}>
        <caption class="tg-visually-hidden">Audit entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Tool</th>
            <th scope="col">Server</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.value.map((entry) => (
            <tr key={entry.invocationId} class={`tg-outcome-${entry.outcome}`}>
              <td data-label="When">{new Date(entry.startedAt).toLocaleString()}</td>
              <td data-label="Tool" class="tg-wrap">
                <ToolName name={entry.toolName} />
              </td>
              <td data-label="Server" class="tg-wrap" title={entry.serverId}>
                {names(entry.serverId)}
              </td>
              <td data-label="Outcome">{entry.outcome}</td>
              <td data-label="Details">
                <button
                  type="button"
                  aria-label={`Details of ${visibleToolName(entry.toolName)} at ${new Date(entry.startedAt).toLocaleTimeString()}`}
                  onClick={() => {
                    selected.value = entry;
                  }}
                >
                  Details
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {entries.value.length === 0 && !loading.value && (
        <p class="tg-empty">
          {Object.values(filters.value).some(Boolean)
            ? 'No entries match these filters.'
            : 'The log is empty: every call through Toolgate is recorded here, allowed or not.'}
        </p>
      )}
      {cursor.value && (
        <button type="button" onClick={() => void more()}>
          Load older entries
        </button>
      )}
      {selected.value && (
        <EntryDetail key={selected.value.invocationId} entry={selected.value} log={log} names={names} />
      )}
    </section>
  );
}

function EntryDetail({ entry, log, names }: { entry: AuditEntry; log: AuditLog; names: ServerNames }) {
  const events = useSignal<unknown[] | undefined>(undefined);
  useSignalEffect(() => {
    void log.eventsOf(entry.invocationId).then((found) => {
      events.value = found;
    });
  });
  return (
    <article class="tg-entry-detail" aria-label={`Audit entry ${entry.invocationId}`}>
      <h3>
        <ToolName name={entry.toolName} /> on {names(entry.serverId)}: {entry.outcome}
      </h3>
      <dl>
        <dt>Decision</dt>
        <dd>
          {entry.decision?.reason ?? entry.reason ?? '—'}
          {entry.approvedBy ? ` (approved by ${entry.approvedBy})` : ''}
        </dd>
        <dt>Caller</dt>
        <dd>
          {entry.caller.kind}
          {entry.caller.label ? ` (${entry.caller.label})` : ''}
        </dd>
        {(entry.sends ?? 1) > 1 && (
          <>
            <dt>Sent</dt>
            <dd>
              {entry.sends} times (re-sent after a lost stream, an expired session or a stale schema; each
              send is its own event below)
            </dd>
          </>
        )}
        {entry.durationMs !== undefined && (
          <>
            <dt>Duration</dt>
            <dd>{entry.durationMs} ms</dd>
          </>
        )}
        {entry.resultSummary && (
          <>
            <dt>Result</dt>
            <dd>{entry.resultSummary}</dd>
          </>
        )}
        {entry.redactedPaths.length > 0 && (
          <>
            <dt>Redacted</dt>
            <dd>{entry.redactedPaths.join(', ')}</dd>
          </>
        )}
      </dl>
      {events.value && <JsonTree value={events.value} label="Chain events" />}
    </article>
  );
}
