/**
 * Tools of every connected server: search, a virtualized list (only the rows in view are in the
 * DOM, so 10,000 tools stay fast), and the selected tool in full: description never cut without a
 * way to expand, poisoning flags, annotations marked "claimed" unless the server is trusted,
 * schemas, an on/off switch, and a form to call it (through the gate, like every call).
 */

import { useComputed, useSignal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import { detectPoisoning, revealInvisible } from '../../gate/poisoning.js';
import type { JsonObject } from '../../protocol/jsonrpc.js';
import type { Tool } from '../../protocol/types.js';
import { JsonTree } from '../components/json-tree.js';
import { SchemaForm, withDefaults } from '../components/schema-form.js';
import type { Controller, ServerState } from '../controller.js';
import { safeIconSrc } from '../safe-media.js';

const ROW_HEIGHT = 44;
const VIEW_ROWS = 10;
const OVERSCAN = 6;

interface Row {
  server: ServerState;
  tool: Tool;
  key: string;
}

export function ToolsView({ controller }: { controller: Controller }) {
  const query = useSignal('');
  const scrollTop = useSignal(0);
  const selected = useSignal<string | undefined>(undefined);
  const rows = useComputed<Row[]>(() => {
    const needle = query.value.trim().toLowerCase();
    const all: Row[] = [];
    for (const server of controller.servers.value)
      for (const tool of server.tools) {
        if (
          needle &&
          !tool.name.toLowerCase().includes(needle) &&
          !(tool.title ?? '').toLowerCase().includes(needle) &&
          !(tool.description ?? '').toLowerCase().includes(needle)
        )
          continue;
        all.push({ server, tool, key: `${server.id}/${tool.name}` });
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

function ToolDetail({ row, controller }: { row: Row; controller: Controller }) {
  const { server, tool } = row;
  const trusted = server.trust === 'trusted';
  const flags = useMemo(() => detectPoisoning(tool), [tool]);
  const args = useSignal<JsonObject>(withDefaults(tool.inputSchema as JsonObject, {}));
  const status = useSignal('');
  const expanded = useSignal(false);
  const description = revealInvisible(tool.description ?? '');
  const long = description.length > 400;
  const enabled = !server.disabled.has(tool.name);
  const annotations = Object.entries(tool.annotations ?? {}).filter(([key]) => key !== 'title');

  const run = async (event: Event) => {
    event.preventDefault();
    status.value = 'Waiting for approval…';
    try {
      await controller.call(server.id, tool.name, args.value);
      status.value = 'Done: see Activity.';
    } catch (error) {
      status.value = (error as Error).message;
    }
  };

  return (
    <article class="tg-tool-detail" aria-labelledby="tg-tool-detail-title">
      <h3 id="tg-tool-detail-title">{tool.title ?? tool.name}</h3>
      <p class="tg-muted">
        <code>{tool.name}</code> on {server.label}
      </p>
      {flags.length > 0 && (
        <ul class="tg-flags" aria-label="Warnings about this tool's text">
          {flags.map((flag) => (
            <li key={`${flag.field}-${flag.kind}`} class="tg-flag">
              {flag.field}: {flag.detail}
            </li>
          ))}
        </ul>
      )}
      <p class="tg-description">{long && !expanded.value ? `${description.slice(0, 400)}…` : description}</p>
      {long && (
        <button
          type="button"
          onClick={() => {
            expanded.value = !expanded.value;
          }}
        >
          {expanded.value ? 'Show less' : 'Show the whole description'}
        </button>
      )}
      {annotations.length > 0 && (
        <ul class="tg-badges" aria-label="Annotations">
          {annotations.map(([key, value]) => (
            <li key={key} class={`tg-badge ${key === 'destructiveHint' && value ? 'tg-badge-danger' : ''}`}>
              {key}: {String(value)}
              {!trusted && <span class="tg-claimed"> (claimed)</span>}
            </li>
          ))}
        </ul>
      )}
      <label class="tg-row">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) =>
            void controller.setToolEnabled(
              server.id,
              tool.name,
              (e.currentTarget as HTMLInputElement).checked,
            )
          }
        />
        Enabled (switched-off tools are refused by the gate)
      </label>
      <details>
        <summary>Input schema</summary>
        <JsonTree value={tool.inputSchema} />
      </details>
      {tool.outputSchema && (
        <details>
          <summary>Output schema</summary>
          <JsonTree value={tool.outputSchema} />
        </details>
      )}
      <form class="tg-try" onSubmit={run}>
        <h4>Call it</h4>
        <SchemaForm
          schema={tool.inputSchema as JsonObject}
          value={args.value}
          idPrefix={`tg-try-${server.id}-${tool.name}`}
          onChange={(next) => {
            args.value = next;
          }}
        />
        <button type="submit" disabled={!enabled || server.state !== 'connected'}>
          Call {tool.title ?? tool.name}
        </button>
        {status.value && <p role="status">{status.value}</p>}
      </form>
    </article>
  );
}
