/**
 * The audit log, table first: one search box, outcome chips with counts, server, tool and time
 * pickers, then the entries newest first (compact times, the full one in each title); a row opens
 * the entry in a side drawer. Verify and export sit beside the filters; what the log keeps and its
 * collector export are settings, in their own section under the table. Every filter runs as one of
 * the log's indexed queries, a page at a time; nothing loads the whole log.
 */

import { useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import {
  type AuditEntry,
  type AuditFacets,
  type AuditLog,
  type AuditQuery,
  describeAnchorReport,
  type EntryOutcome,
} from '../../audit/index.js';
import { type PanelController, type ServerState, serverNames } from '../../session/index.js';
import { auditStyles } from './audit.css.js';
import { AuditDrawer, type AuditRunAgain } from './audit-drawer.js';
import { AuditExport } from './audit-export.js';
import { AuditExportStatus } from './audit-export-status.js';
import { countLog, namedServers, searchLog } from './audit-search.js';
import { AuditRetention, AuditStorageFull } from './audit-storage.js';
import { AuditTable } from './audit-table.js';
import { CHIP_ORDER, countOf, OUTCOME_WORDS } from './audit-words.js';
import type { RunAgainHost } from './run-again.js';

export function AuditView({
  controller,
  runAgain,
}: {
  controller: PanelController;
  /** Where an entry's "Run again" puts its call (absent where the panel has no Tools tab). */
  runAgain?: RunAgainHost | undefined;
}) {
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
  return (
    <>
      <style>{auditStyles}</style>
      <AuditBrowser
        log={log}
        servers={controller.servers.value}
        runAgain={runAgain && { host: runAgain, controller }}
      />
    </>
  );
}

const PAGE = 50;
const DAY = 86_400_000;

/** The time picker's choices: how far back, in ms (0: any time). */
const SINCE: ReadonlyArray<readonly [string, string, number]> = [
  ['', 'Any time', 0],
  ['hour', 'Last hour', 3_600_000],
  ['day', 'Last 24 hours', DAY],
  ['week', 'Last 7 days', 7 * DAY],
  ['month', 'Last 30 days', 30 * DAY],
];

interface Filters {
  text: string;
  serverId: string;
  toolName: string;
  outcomes: readonly EntryOutcome[];
  since: string;
}

const NO_FILTERS: Filters = { text: '', serverId: '', toolName: '', outcomes: [], since: '' };

function queryOf(filters: Filters): AuditQuery {
  const back = SINCE.find(([key]) => key === filters.since)?.[2] ?? 0;
  return {
    limit: PAGE,
    ...(filters.text.trim() ? { text: filters.text } : {}),
    ...(filters.serverId ? { serverId: filters.serverId } : {}),
    ...(filters.toolName ? { toolName: filters.toolName } : {}),
    ...(filters.outcomes.length > 0 ? { outcome: filters.outcomes } : {}),
    ...(back > 0 ? { from: Date.now() - back } : {}),
  };
}

function AuditBrowser({
  log,
  servers,
  runAgain,
}: {
  log: AuditLog;
  servers: readonly ServerState[];
  runAgain: AuditRunAgain | undefined;
}) {
  const names = serverNames(servers);
  // What a search can name a server by: what the lists show, and its own label.
  const searchable = servers.map((server) => ({ id: server.id, names: [names(server.id), server.label] }));
  const filters = useSignal<Filters>(NO_FILTERS);
  const entries = useSignal<AuditEntry[]>([]);
  const cursor = useSignal<string | undefined>(undefined);
  const counts = useSignal<Record<EntryOutcome, number> | undefined>(undefined);
  const totals = useSignal<{ entries: number; events: number } | undefined>(undefined);
  const facets = useSignal<AuditFacets>({ serverIds: [], toolNames: [] });
  const selected = useSignal<AuditEntry | undefined>(undefined);
  const verifyText = useSignal('');
  const anchorText = useSignal('');
  const loading = useSignal(true);
  const revision = useSignal(0);
  /** The row button that opened the drawer: focus goes back to it when the drawer closes. */
  const opener = useRef<HTMLElement | null>(null);

  useSignalEffect(() => {
    void revision.value;
    const query = queryOf(filters.value);
    const named = namedServers(query, searchable);
    let live = true;
    loading.value = true;
    void searchLog(log, query, named).then((page) => {
      if (!live) return;
      entries.value = page.entries;
      cursor.value = page.cursor;
      loading.value = false;
    });
    return () => {
      live = false;
    };
  });
  // The chips count what the other filters find (so a chip's count is the rows it would show).
  useSignalEffect(() => {
    void revision.value;
    const { outcome: _outcome, limit: _limit, ...others } = queryOf(filters.value);
    const named = namedServers(others, searchable);
    let live = true;
    void countLog(log, others, named).then((byOutcome) => {
      if (live) counts.value = byOutcome;
    });
    return () => {
      live = false;
    };
  });
  // The totals and the pickers' names change only with the log, not with the filters.
  useSignalEffect(() => {
    void revision.value;
    void Promise.all([log.count(), log.countEvents(), log.facets()]).then(([all, events, found]) => {
      totals.value = { entries: all, events };
      facets.value = found;
    });
  });
  // New entries from this tab or another one: reload the first page, and the open entry if it changed.
  useSignalEffect(() =>
    log.subscribe((change) => {
      if (change.type === 'appended' || change.type === 'pruned') revision.value++;
      const open = selected.peek();
      if (change.type === 'appended' && open && change.invocationIds.includes(open.invocationId))
        void log.get(open.invocationId).then((entry) => {
          if (entry && selected.peek()?.invocationId === entry.invocationId) selected.value = entry;
        });
    }),
  );

  const more = async () => {
    if (!cursor.value) return;
    const query = queryOf(filters.value);
    const page = await searchLog(log, { ...query, cursor: cursor.value }, namedServers(query, searchable));
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
      ? `Chain verified: ${countOf(result.count, 'event', 'events')}, none altered.`
      : `Chain broken at event ${result.seq}${result.invocationId ? ` (invocation ${result.invocationId})` : ''}: ${result.reason}.`;
    // Whether the chain still passes through its last signed head (a rewrite of the whole chain
    // is only caught against a head the host shipped elsewhere: verify({ anchor })).
    anchorText.value = describeAnchorReport(result.anchor);
  };
  const set = (key: 'text' | 'serverId' | 'toolName' | 'since') => (event: Event) => {
    filters.value = { ...filters.value, [key]: (event.currentTarget as HTMLInputElement).value };
  };
  const toggle = (outcome: EntryOutcome | undefined) => {
    const now = filters.value.outcomes;
    filters.value = {
      ...filters.value,
      outcomes:
        outcome === undefined
          ? []
          : now.includes(outcome)
            ? now.filter((o) => o !== outcome)
            : [...now, outcome],
    };
  };
  const close = () => {
    selected.value = undefined;
    queueMicrotask(() => {
      if (opener.current?.isConnected) opener.current.focus();
    });
  };

  const f = filters.value;
  const filtered =
    f.text.trim() !== '' || f.serverId !== '' || f.toolName !== '' || f.outcomes.length > 0 || f.since !== '';
  const serverIds = withChosen(facets.value.serverIds, f.serverId);
  const toolNames = withChosen(facets.value.toolNames, f.toolName);
  return (
    <section class="tg-view tg-audit" aria-labelledby="tg-log-heading">
      <h2 id="tg-log-heading">Audit log</h2>
      <AuditStorageFull log={log} />
      <form class="tg-audit-toolbar" onSubmit={(event) => event.preventDefault()}>
        <label class="tg-audit-search">
          <span class="tg-visually-hidden">Search the log</span>
          <input
            type="search"
            placeholder="Search tool, server, caller, arguments"
            value={f.text}
            onInput={set('text')}
          />
        </label>
        <label>
          <span class="tg-visually-hidden">Server</span>
          <select value={f.serverId} onChange={set('serverId')}>
            <option value="">All servers</option>
            {serverIds.map((id) => (
              <option key={id} value={id}>
                {names(id)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span class="tg-visually-hidden">Tool</span>
          <select value={f.toolName} onChange={set('toolName')}>
            <option value="">All tools</option>
            {toolNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span class="tg-visually-hidden">When</span>
          <select value={f.since} onChange={set('since')}>
            {SINCE.map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </form>
      <OutcomeChips counts={counts.value} chosen={f.outcomes} onToggle={toggle} />
      <p class="tg-muted tg-audit-about">
        {totals.value
          ? `${countOf(totals.value.entries, 'entry', 'entries')}, ${countOf(totals.value.events, 'event', 'events')}. `
          : ''}
        An entry is one call; its events are the chained records it is made of (requested, decided, sent,
        result), which Verify checks and Export writes.
      </p>
      <div class="tg-audit-actions">
        <button type="button" onClick={() => void verify()}>
          Verify chain
        </button>
        <AuditExport log={log} />
      </div>
      {verifyText.value && (
        <p role="status" class="tg-verify">
          {verifyText.value}
        </p>
      )}
      {anchorText.value && <p class="tg-muted tg-anchor">{anchorText.value}</p>}
      <AuditTable
        entries={entries.value}
        names={names}
        busy={loading.value}
        selectedId={selected.value?.invocationId}
        onOpen={(entry, from) => {
          opener.current = from;
          selected.value = entry;
        }}
      />
      {entries.value.length === 0 && !loading.value && (
        <div class="tg-empty" role="status">
          {!filtered ? (
            'The log is empty: every call through Toolgate is recorded here, allowed or not.'
          ) : (
            <>
              {f.text.trim()
                ? `Nothing in the log matches “${f.text.trim()}”${f.serverId || f.toolName || f.outcomes.length > 0 || f.since ? ' with these filters' : ''}. Search finds words that begin a tool, server, caller or argument.`
                : 'No entries match these filters.'}{' '}
              <button
                type="button"
                onClick={() => {
                  filters.value = NO_FILTERS;
                }}
              >
                Clear filters
              </button>
            </>
          )}
        </div>
      )}
      {cursor.value && (
        <button type="button" onClick={() => void more()}>
          Load older entries
        </button>
      )}
      <section class="tg-audit-settings" aria-labelledby="tg-audit-settings-heading">
        <h3 id="tg-audit-settings-heading">Settings</h3>
        <AuditRetention log={log} />
        <AuditExportStatus log={log} />
      </section>
      {selected.value && (
        <AuditDrawer
          key={selected.value.invocationId}
          entry={selected.value}
          log={log}
          names={names}
          onClose={close}
          runAgain={runAgain}
        />
      )}
    </section>
  );
}

/** The picker's names, with the chosen one kept even when the log no longer has it. */
function withChosen(names: readonly string[], chosen: string): readonly string[] {
  return chosen && !names.includes(chosen) ? [chosen, ...names] : names;
}

function OutcomeChips({
  counts,
  chosen,
  onToggle,
}: {
  counts: Record<EntryOutcome, number> | undefined;
  chosen: readonly EntryOutcome[];
  onToggle: (outcome: EntryOutcome | undefined) => void;
}) {
  if (!counts) return null;
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const shown = CHIP_ORDER.filter((outcome) => counts[outcome] > 0 || chosen.includes(outcome));
  return (
    <ul class="tg-audit-chips" aria-label="Outcomes (counts of the entries the other filters find)">
      <li>
        <button
          type="button"
          class="tg-chip"
          aria-pressed={chosen.length === 0}
          onClick={() => onToggle(undefined)}
        >
          All <span class="tg-chip-count">{total.toLocaleString()}</span>
        </button>
      </li>
      {shown.map((outcome) => {
        const words = OUTCOME_WORDS[outcome];
        return (
          <li key={outcome}>
            <button
              type="button"
              class={`tg-chip tg-tone-${words.tone}`}
              data-outcome={outcome}
              aria-pressed={chosen.includes(outcome)}
              onClick={() => onToggle(outcome)}
            >
              <span aria-hidden="true">{words.icon}</span> {words.label}{' '}
              <span class="tg-chip-count">{counts[outcome].toLocaleString()}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
