/**
 * Tools of every connected server: search, a virtualized list (only the rows in view are in the
 * DOM, so 10,000 tools stay fast), and the selected tool in full (tool-detail.tsx).
 */

import { useComputed, useSignal } from '@preact/signals';
import { toolNameProblem } from '../../client/tool-checks.js';
import type { Tool } from '../../protocol/types.js';
import type { PanelController, ServerState } from '../controller.js';
import { lazyView } from '../lazy.js';
import { safeIconSrc } from '../safe-media.js';

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

export function ToolsView({ controller }: { controller: PanelController }) {
  const query = useSignal('');
  const scrollTop = useSignal(0);
  const selected = useSignal<string | undefined>(undefined);
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
        }}
      />
      <p class="tg-muted" role="status">
        {list.length} {list.length === 1 ? 'tool' : 'tools'}
      </p>
      <ListWarnings servers={controller.servers.value} />
      <div
        class="tg-virtual"
        style={{ height: `${Math.min(list.length, VIEW_ROWS) * ROW_HEIGHT + 2}px` }}
        onScroll={(e) => {
          scrollTop.value = (e.currentTarget as HTMLDivElement).scrollTop;
        }}
      >
        <ul
          class="tg-tool-list"
          aria-label="Tools"
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
                aria-pressed={selected.value === row.key}
                onClick={() => {
                  selected.value = row.key;
                }}
              >
                <ToolIcon tool={row.tool} />
                <span class="tg-tool-title">{row.tool.title ?? row.tool.name}</span>
                <span class="tg-muted"> · {row.server.label}</span>
                {row.server.disabled.has(row.tool.name) && <span class="tg-badge">off</span>}
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
      {current && <ToolDetail key={current.key} row={current} controller={controller} />}
    </section>
  );
}

function ToolIcon({ tool }: { tool: Tool }) {
  const src = tool.icons?.map(safeIconSrc).find((value) => value !== undefined);
  if (!src) return <span class="tg-icon" aria-hidden="true" />;
  // No credentials, no referrer: an icon URL must not become a tracking or auth channel.
  return <img class="tg-icon" src={src} alt="" crossOrigin="anonymous" referrerPolicy="no-referrer" />;
}

/** A marker for each server whose tool list has warnings; the Servers view gives the reasons. */
function ListWarnings({ servers }: { servers: readonly ServerState[] }) {
  const flagged = servers.filter((server) => (server.warnings?.length ?? 0) > 0);
  if (flagged.length === 0) return null;
  return (
    <ul class="tg-warning tg-list-warnings" aria-label="Tool list warnings">
      {flagged.map((server) => {
        const n = server.warnings?.length ?? 0;
        return (
          <li key={server.id}>
            ⚠ {server.label}: {n} {n === 1 ? 'warning' : 'warnings'} about its tool list (see Servers)
          </li>
        );
      })}
    </ul>
  );
}
