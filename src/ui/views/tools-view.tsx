/**
 * Tools of every connected server: search, a virtualized list grouped by server (only the rows in
 * view are in the DOM, so 10,000 tools stay fast), and the selected tool in full (tool-detail.tsx),
 * beside the list when the panel is 720 px wide or more (styles.ts), under it otherwise.
 */

import { useComputed, useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { toolNameProblem } from '../../client/index.js';
import type { Tool } from '../../protocol/index.js';
import { type PanelController, type ServerState, serverNames } from '../../session/index.js';
import { ToolMarks, toolMarks } from '../components/tool-marks.js';
import { lazyView } from '../lazy.js';
import { safeIconSrc } from '../safe-media.js';
import { createPanelViewState, type PanelViewState } from '../view-state.js';
import { ExcludedTools } from './excluded-tools.js';

// The selected tool in full (poisoning checks, schema form, JSON trees) is its own chunk.
const ToolDetail = lazyView(() => import('./tool-detail.js').then((m) => m.ToolDetail));

const ROW_HEIGHT = 52;
/** A server's heading in the list, above its tools. */
const GROUP_HEIGHT = 30;
/** The list's height at most, and how far beyond it rows are drawn (px). */
const VIEW_HEIGHT = 520;
const OVERSCAN = 300;
/** How many rows PageUp and PageDown move. */
const PAGE_ROWS = 8;

export interface Row {
  server: ServerState;
  tool: Tool;
  key: string;
}

/** What the list draws: a server's heading, or a tool row (`index` in the list of tools). */
interface Item {
  top: number;
  server: ServerState;
  row?: Row;
  index: number;
}

/** Places each tool under its server's heading; returns every item, in order, and each tool's top. */
function layOut(list: readonly Row[]): { items: Item[]; tops: number[]; height: number } {
  const items: Item[] = [];
  const tops: number[] = [];
  let y = 0;
  list.forEach((row, index) => {
    if (row.server !== list[index - 1]?.server) {
      items.push({ top: y, server: row.server, index: -1 });
      y += GROUP_HEIGHT;
    }
    items.push({ top: y, server: row.server, row, index });
    tops.push(y);
    y += ROW_HEIGHT;
  });
  return { items, tops, height: y };
}

/** The first item that ends below `y` (items are in order of their tops). */
function firstBelow(items: readonly Item[], y: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (items[middle]!.top + ROW_HEIGHT <= y) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function ToolsView({ controller, views }: { controller: PanelController; views?: PanelViewState }) {
  // The panel keeps these across tabs; a ToolsView on its own keeps them while it is shown.
  const own = useMemo(() => views ?? createPanelViewState(), [views]);
  const { toolQuery: query, toolScrollTop: scrollTop, selectedTool: selected } = own;
  /** The row that takes Tab in the list (one stop for the whole list; arrow keys move it). */
  const active = useSignal(-1);
  const wantsFocus = useRef(false);
  const scroller = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
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
  const { items, tops, height } = useMemo(() => layOut(list), [list]);
  // The items drawn: those in view, and OVERSCAN px of them either side.
  const from = firstBelow(items, scrollTop.value - OVERSCAN);
  let to = from;
  while (to < items.length && items[to]!.top < scrollTop.value + VIEW_HEIGHT + OVERSCAN) to++;
  const drawn = items.slice(from, to);
  const drawnTools = drawn.filter((item) => item.row);
  const first = drawnTools[0]?.index ?? 0;
  const last = (drawnTools.at(-1)?.index ?? -1) + 1;
  const current = list.find((row) => row.key === selected.value);
  const selectedIndex = current ? list.indexOf(current) : -1;
  // The tab stop: the row moved to with the arrows, else the selected one; always one that is drawn.
  const preferred = active.value >= 0 ? active.value : Math.max(selectedIndex, 0);
  const stop = Math.min(Math.max(preferred, first), Math.max(first, last - 1));
  const marked = list.some((row) => toolMarks(row.tool.annotations).length > 0);

  // Read while rendering, so "/" pressed on this tab renders it again and the search takes focus.
  const wantsSearch = own.focusToolSearch.value;
  useEffect(() => {
    if (!wantsSearch) return;
    own.focusToolSearch.value = false;
    search.current?.focus();
  });
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
      // Scroll just enough that the row is drawn and visible (with its server's heading when it is
      // the server's first), then focus it once rendered.
      const top = tops[next]! - (list[next - 1]?.server === list[next]!.server ? 0 : GROUP_HEIGHT);
      if (top < box.scrollTop) box.scrollTop = top;
      else if (tops[next]! + ROW_HEIGHT > box.scrollTop + box.clientHeight)
        box.scrollTop = tops[next]! + ROW_HEIGHT - box.clientHeight;
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
      PageDown: stop + PAGE_ROWS,
      PageUp: stop - PAGE_ROWS,
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
      <div class="tg-panes">
        <div>
          <label for="tg-tool-search">Search tools</label>
          <input
            id="tg-tool-search"
            ref={search}
            type="search"
            aria-keyshortcuts="/"
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
            style={{ height: `${Math.min(height, VIEW_HEIGHT) + 2}px` }}
            onScroll={(e) => {
              scrollTop.value = (e.currentTarget as HTMLDivElement).scrollTop;
            }}
          >
            <ul
              class="tg-tool-list"
              aria-label="Tools"
              aria-describedby={list.length > 1 ? 'tg-tool-list-hint' : undefined}
              onKeyDown={onListKey}
              style={{ height: `${height}px`, position: 'relative' }}
            >
              {drawn.map((item) =>
                item.row ? (
                  <ToolRow
                    key={item.row.key}
                    item={item}
                    label={names(item.server.id)}
                    stop={item.index === stop}
                    selected={selected.value === item.row.key}
                    twin={twins.has(`${item.server.id}/${item.row.tool.name}`)}
                    onPick={() => {
                      active.value = item.index;
                      selected.value = item.row!.key;
                      own.focusToolDetail.value = true;
                    }}
                  />
                ) : (
                  <li
                    key={`server ${item.server.id}`}
                    class="tg-tool-row tg-tool-group"
                    style={{ top: `${item.top}px`, height: `${GROUP_HEIGHT}px` }}
                  >
                    <span title={names(item.server.id)}>{names(item.server.id)}</span>
                  </li>
                ),
              )}
            </ul>
          </div>
          {list.length > 1 && (
            <p id="tg-tool-list-hint" class="tg-help">
              The list is one Tab stop: arrow keys move through it, Enter opens a tool.
            </p>
          )}
          {marked && (
            <p class="tg-help">
              Read-only, Destructive and Open world are what each server claims about its tools.
            </p>
          )}
          <ExcludedTools servers={controller.servers.value} names={names} query={query.value} />
        </div>
        {current ? (
          <ToolDetail key={current.key} row={current} controller={controller} views={own} />
        ) : (
          list.length > 0 && <p class="tg-pick">Pick a tool to read about it and call it.</p>
        )}
      </div>
    </section>
  );
}

/** One tool in the list: its title first, its name beside it, one line of description, its marks. */
function ToolRow({
  item,
  label,
  stop,
  selected,
  twin,
  onPick,
}: {
  item: Item;
  label: string;
  stop: boolean;
  selected: boolean;
  twin: boolean;
  onPick: () => void;
}) {
  const { server, tool } = item.row!;
  const title = tool.title?.trim() || tool.name;
  const problem = toolNameProblem(tool.name);
  return (
    <li class="tg-tool-row" style={{ top: `${item.top}px`, height: `${ROW_HEIGHT}px` }}>
      <button
        type="button"
        class="tg-tool-button"
        data-index={item.index}
        tabIndex={stop ? 0 : -1}
        aria-pressed={selected}
        title={`${title} · ${label}`}
        onClick={onPick}
      >
        <ToolIcon tool={tool} />
        <span class="tg-tool-text">
          <span class="tg-tool-line">
            <span class="tg-tool-title">{title}</span>
            <span class="tg-visually-hidden"> · {label}</span>
            {title !== tool.name && <code>{tool.name}</code>}
            <ToolMarks marks={toolMarks(tool.annotations)} claimShown={false} />
            {server.disabled.has(tool.name) && <span class="tg-badge">off</span>}
            {twin && (
              <span
                class="tg-badge tg-badge-danger"
                title={`${label} lists more than one tool named ${tool.name}`}
              >
                ⚠ name listed twice
              </span>
            )}
            {problem && (
              <span class="tg-badge tg-badge-danger" title={problem}>
                ⚠ bad name
              </span>
            )}
          </span>
          {tool.description && <span class="tg-tool-description">{tool.description.slice(0, 200)}</span>}
        </span>
      </button>
    </li>
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
