/**
 * Tools of every connected server: search, a virtualized list (only the rows in view are in the
 * DOM, so 10,000 tools stay fast), and the selected tool in full (tool-detail.tsx).
 */

import { useComputed, useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { toolNameProblem } from '../../client/index.js';
import type { Tool } from '../../protocol/index.js';
import { type PanelController, type ServerState, serverNames } from '../../session/index.js';
import { lazyView } from '../lazy.js';
import { safeIconSrc } from '../safe-media.js';
import { createPanelViewState, type PanelViewState } from '../view-state.js';
import { ExcludedTools } from './excluded-tools.js';

// The selected tool in full (poisoning checks, schema form, JSON trees) is its own chunk.
const ToolDetail = lazyView(() => import('./tool-detail.js').then((m) => m.ToolDetail));

const ROW_HEIGHT = 44;
const VIEW_ROWS = 10;
const OVERSCAN = 6;

export interface Row {
  server: ServerState;
  tool: Tool;
  key: string;
}

export function ToolsView({ controller, views }: { controller: PanelController; views?: PanelViewState }) {
  // The panel keeps these across tabs; a ToolsView on its own keeps them while it is shown.
  const own = useMemo(() => views ?? createPanelViewState(), [views]);
  const { toolQuery: query, toolScrollTop: scrollTop, selectedTool: selected } = own;
  /** The row that takes Tab in the list (one stop for the whole list; arrow keys move it). */
  const active = useSignal(-1);
  const wantsFocus = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);
  const names = serverNames(controller.servers.value);
  // `serverId/name` of every name a server lists more than once: each such row is flagged.
  const twins = useMemo(() => {
    const seen = new Set<string>();
    const twice = new Set<string>();
    for (const server of controller.servers.value)
      for (const tool of server.tools) {
        const key = `${server.id}/${tool.name}`;
        if (seen.has(key)) twice.add(key);
        else seen.add(key);
      }
    return twice;
  }, [controller.servers.value]);
  const rows = useComputed<Row[]>(() => {
    const needle = query.value.trim().toLowerCase();
    const all: Row[] = [];
    const keys = new Set<string>();
    for (const server of controller.servers.value)
      for (const tool of server.tools) {
        if (
          needle &&
          !tool.name.toLowerCase().includes(needle) &&
          !(tool.title ?? '').toLowerCase().includes(needle) &&
          !(tool.description ?? '').toLowerCase().includes(needle)
        )
          continue;
        // A server may list one name twice (it is warned about): each definition keeps its own row.
        let key = `${server.id}/${tool.name}`;
        for (let n = 2; keys.has(key); n++) key = `${server.id}/${tool.name}#${n}`;
        keys.add(key);
        all.push({ server, tool, key });
      }
    return all;
  });
  const list = rows.value;
  const first = Math.max(0, Math.floor(scrollTop.value / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(list.length, first + VIEW_ROWS + OVERSCAN * 2);
  const current = list.find((row) => row.key === selected.value);
  const selectedIndex = current ? list.indexOf(current) : -1;
  // The tab stop: the row moved to with the arrows, else the selected one; always one that is drawn.
  const preferred = active.value >= 0 ? active.value : Math.max(selectedIndex, 0);
  const stop = Math.min(Math.max(preferred, first), Math.max(first, last - 1));

  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = scrollTop.value;
  }, []);
  useEffect(() => {
    if (!wantsFocus.current) return;
    wantsFocus.current = false;
    scroller.current?.querySelector<HTMLElement>(`[data-index="${active.value}"]`)?.focus();
  });

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(list.length - 1, index));
    active.value = next;
    const box = scroller.current;
    if (box) {
      // Scroll just enough that the row is drawn and visible, then focus it once rendered.
      const top = next * ROW_HEIGHT;
      if (top < box.scrollTop) box.scrollTop = top;
      else if (top + ROW_HEIGHT > box.scrollTop + box.clientHeight)
        box.scrollTop = top + ROW_HEIGHT - box.clientHeight;
      scrollTop.value = box.scrollTop;
    }
    // A row already drawn takes focus now; one the scroll brings in, once it is rendered.
    const drawn = box?.querySelector<HTMLElement>(`[data-index="${next}"]`);
    if (drawn) drawn.focus();
    else wantsFocus.current = true;
  };
  const onListKey = (event: KeyboardEvent) => {
    const steps: Record<string, number> = {
      ArrowDown: stop + 1,
      ArrowUp: stop - 1,
      PageDown: stop + VIEW_ROWS,
      PageUp: stop - VIEW_ROWS,
      Home: 0,
      End: list.length - 1,
    };
    const target = steps[event.key];
    if (target === undefined || list.length === 0) return;
    event.preventDefault();
    moveTo(target);
  };

  return (
    <section class="tg-view" aria-labelledby="tg-tools-heading">
      <h2 id="tg-tools-heading">Tools</h2>
      <label for="tg-tool-search">Search tools</label>
      <input
        id="tg-tool-search"
        type="search"
        value={query.value}
        onInput={(e) => {
          query.value = (e.currentTarget as HTMLInputElement).value;
          scrollTop.value = 0;
          active.value = -1;
          if (scroller.current) scroller.current.scrollTop = 0;
        }}
      />
      <p class="tg-muted" role="status">
        {list.length} {list.length === 1 ? 'tool' : 'tools'}
      </p>
      {list.length === 0 && <EmptyTools controller={controller} searching={query.value.trim() !== ''} />}
      <ListWarnings servers={controller.servers.value} names={names} />
      <div
        ref={scroller}
        class="tg-virtual"
        hidden={list.length === 0}
        style={{ height: `${Math.min(list.length, VIEW_ROWS) * ROW_HEIGHT + 2}px` }}
        onScroll={(e) => {
          scrollTop.value = (e.currentTarget as HTMLDivElement).scrollTop;
        }}
      >
        <ul
          class="tg-tool-list"
          aria-label="Tools"
          aria-describedby={list.length > 1 ? 'tg-tool-list-hint' : undefined}
          onKeyDown={onListKey}
          style={{ height: `${list.length * ROW_HEIGHT}px`, position: 'relative' }}
        >
          {list.slice(first, last).map((row, offset) => (
            <li
              key={row.key}
              class="tg-tool-row"
              style={{ top: `${(first + offset) * ROW_HEIGHT}px`, height: `${ROW_HEIGHT}px` }}
            >
              <button
                type="button"
                class="tg-tool-button"
                data-index={first + offset}
                tabIndex={first + offset === stop ? 0 : -1}
                aria-pressed={selected.value === row.key}
                title={`${row.tool.title ?? row.tool.name} · ${names(row.server.id)}`}
                onClick={() => {
                  active.value = first + offset;
                  selected.value = row.key;
                  own.focusToolDetail.value = true;
                }}
              >
                <ToolIcon tool={row.tool} />
                <span class="tg-tool-title">{row.tool.title ?? row.tool.name}</span>
                <span class="tg-muted tg-tool-server"> · {names(row.server.id)}</span>
                {row.server.disabled.has(row.tool.name) && <span class="tg-badge">off</span>}
                {twins.has(`${row.server.id}/${row.tool.name}`) && (
                  <span
                    class="tg-badge tg-badge-danger"
                    title={`${names(row.server.id)} lists more than one tool named ${row.tool.name}`}
                  >
                    ⚠ name listed twice
                  </span>
                )}
                {toolNameProblem(row.tool.name) && (
                  <span class="tg-badge tg-badge-danger" title={toolNameProblem(row.tool.name)}>
                    ⚠ bad name
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </div>
      {list.length > 1 && (
        <p id="tg-tool-list-hint" class="tg-help">
          The list is one Tab stop: arrow keys move through it, Enter opens a tool.
        </p>
      )}
      <ExcludedTools servers={controller.servers.value} names={names} query={query.value} />
      {current && <ToolDetail key={current.key} row={current} controller={controller} views={own} />}
    </section>
  );
}

function ToolIcon({ tool }: { tool: Tool }) {
  const src = tool.icons?.map(safeIconSrc).find((value) => value !== undefined);
  if (!src) return <span class="tg-icon" aria-hidden="true" />;
  // No credentials, no referrer: an icon URL must not become a tracking or auth channel.
  return <img class="tg-icon" src={src} alt="" crossOrigin="anonymous" referrerPolicy="no-referrer" />;
}

/** Why the list is empty, and what to do about it. */
function EmptyTools({ controller, searching }: { controller: PanelController; searching: boolean }) {
  const servers = controller.servers.value;
  const text = searching
    ? 'No tool matches this search: try fewer letters, or a word from its description.'
    : servers.length === 0
      ? 'No servers yet: add one in the Servers tab and its tools appear here.'
      : servers.some((server) => server.state === 'connecting')
        ? 'Connecting… the tools appear as soon as a server answers.'
        : 'None of the servers offers tools right now (see the Servers tab for their state).';
  return <p class="tg-empty">{text}</p>;
}

/** A marker for each server whose tool list has warnings; the Servers view gives the reasons. */
function ListWarnings({
  servers,
  names,
}: {
  servers: readonly ServerState[];
  names: (id: string) => string;
}) {
  const flagged = servers.filter((server) => (server.warnings?.length ?? 0) > 0);
  if (flagged.length === 0) return null;
  return (
    <ul class="tg-warning tg-list-warnings" aria-label="Tool list warnings">
      {flagged.map((server) => {
        const n = server.warnings?.length ?? 0;
        return (
          <li key={server.id}>
            ⚠ {names(server.id)}: {n} {n === 1 ? 'warning' : 'warnings'} about its tool list (see Servers)
          </li>
        );
      })}
    </ul>
  );
}
