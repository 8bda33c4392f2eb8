/**
 * "Import or export": servers from the files people already have (Claude Desktop and Claude Code,
 * Cursor, VS Code, the registry's server.json, a list of URLs; see server-lists.ts), each entry
 * shown before anything is added; and the panel's servers written in those formats. Its own chunk:
 * opened from Servers, never on the first screen.
 *
 * Nothing secret moves unseen: an imported entry's headers are named and sent only when the person
 * ticks them; an export never carries headers, and hides URL secrets (the URL secret rule).
 */

import { useSignal } from '@preact/signals';
import { redactUrl } from '../../protocol/index.js';
import { type PanelController, serverNames } from '../../session/index.js';
import { CopyButton } from '../components/copy-button.js';
import { ScrollText } from '../components/scroll-text.js';
import {
  BRIDGED_URL,
  bridgeCommand,
  type ExportFormat,
  type ImportEntry,
  readServerList,
  writeServerList,
} from './server-lists.js';

const FORMAT_NAMES: Record<string, string> = {
  mcpServers: 'Claude or Cursor (mcpServers)',
  vscode: 'VS Code (servers)',
  registry: 'MCP registry server.json',
  urls: 'a list of URLs',
};

const EXPORTS: { format: ExportFormat; label: string; file: string }[] = [
  { format: 'vscode', label: 'VS Code (.vscode/mcp.json)', file: 'mcp.json' },
  { format: 'claude-code', label: 'Claude Code (.mcp.json)', file: '.mcp.json' },
  {
    format: 'claude-desktop',
    label: 'Claude Desktop (through mcp-remote)',
    file: 'claude_desktop_config.json',
  },
  { format: 'cursor', label: 'Cursor (mcp.json)', file: 'mcp.json' },
  { format: 'urls', label: 'A list of URLs', file: 'mcp-servers.txt' },
];

type Row = ImportEntry & { key: number; chosen: boolean; withHeaders: boolean };

export function ServerTransfer({
  controller,
  onClose,
}: {
  controller: PanelController;
  onClose: () => void;
}) {
  return (
    <section class="tg-transfer" aria-label="Import or export servers">
      <ImportPart controller={controller} />
      <ExportPart controller={controller} />
      <button type="button" onClick={onClose}>
        Close
      </button>
    </section>
  );
}

function ImportPart({ controller }: { controller: PanelController }) {
  const rows = useSignal<Row[]>([]);
  const format = useSignal('');
  const problem = useSignal('');
  const outcome = useSignal('');
  const busy = useSignal(false);

  const load = (text: string) => {
    outcome.value = '';
    const read = readServerList(text);
    if (!read.ok) {
      problem.value = read.problem;
      rows.value = [];
      return;
    }
    problem.value = '';
    format.value = FORMAT_NAMES[read.format] ?? read.format;
    rows.value = read.entries.map((entry, key) => ({
      ...entry,
      key,
      chosen: entry.kind === 'remote',
      withHeaders: false,
    }));
  };
  const change = (key: number, patch: Partial<Row>) => {
    rows.value = rows.value.map((row) => (row.key === key ? ({ ...row, ...patch } as Row) : row));
  };
  const chosen = rows.value.filter((row) => row.kind === 'remote' && row.chosen);

  const add = async () => {
    busy.value = true;
    const added: string[] = [];
    const failed: string[] = [];
    try {
      for (const row of chosen) {
        if (row.kind !== 'remote') continue;
        const headers = row.withHeaders ? row.headers : undefined;
        try {
          const state = await controller.addServer({
            url: row.url,
            ...(row.name ? { label: row.name } : {}),
            // The file's `"type": "sse"`: the legacy transport, without trying Streamable HTTP first.
            ...(row.transport === 'sse' ? { httpTransport: 'sse' as const } : {}),
            ...(headers ? { headers } : {}),
          });
          (state.state === 'failed' ? failed : added).push(row.name || row.url);
        } catch (error) {
          failed.push(`${row.name || row.url} (${error instanceof Error ? error.message : String(error)})`);
        }
      }
      rows.value = [];
      outcome.value = `Added ${added.length} ${added.length === 1 ? 'server' : 'servers'}${
        failed.length ? `; could not connect: ${failed.join(', ')} (see the list)` : ''
      }.`;
    } finally {
      busy.value = false;
    }
  };

  return (
    <div class="tg-import">
      <h3>Import</h3>
      <label for="tg-import-file">
        A configuration file: Claude Desktop, Claude Code, Cursor, VS Code, a registry server.json, or a list
        of URLs
      </label>
      <input
        id="tg-import-file"
        type="file"
        accept=".json,.txt,application/json,text/plain"
        onChange={(event) => {
          const file = (event.currentTarget as HTMLInputElement).files?.[0];
          if (file) void file.text().then(load, () => (problem.value = 'The file could not be read.'));
        }}
      />
      <div role="alert">{problem.value && <p class="tg-error">{problem.value}</p>}</div>
      {outcome.value && (
        <p role="status" class="tg-muted">
          {outcome.value}
        </p>
      )}
      {rows.value.length > 0 && (
        <>
          <p>Read as {format.value}. Choose what to add; nothing is added until you press the button.</p>
          <ul class="tg-import-list" aria-label="Servers in the file">
            {rows.value.map((row) => (
              <li key={row.key} data-import={row.name || (row.kind === 'remote' ? row.url : '')}>
                {row.kind === 'remote' ? (
                  <RemoteRow row={row} change={(patch) => change(row.key, patch)} />
                ) : (
                  <>
                    <p class="tg-wrap">
                      <strong>{row.name || 'An entry'}</strong>: skipped, {row.reason}.
                    </p>
                    {row.stdio && <BridgeRecipe name={row.name} stdio={row.stdio} />}
                  </>
                )}
              </li>
            ))}
          </ul>
          <button type="button" class="tg-allow" disabled={busy.value || chosen.length === 0} onClick={add}>
            {busy.value ? 'Adding…' : `Add ${chosen.length} ${chosen.length === 1 ? 'server' : 'servers'}`}
          </button>
        </>
      )}
    </div>
  );
}

/**
 * The bridge recipe for one stdio entry (docs/servers.md, "A stdio server, from the browser"): the
 * command that serves it over Streamable HTTP to this page only, and the URL to add then. The
 * command is the file's: the person runs it on their own computer, so it is shown whole, to read.
 */
function BridgeRecipe({ name, stdio }: { name: string; stdio: string }) {
  const command = bridgeCommand(stdio, location.origin);
  return (
    <details class="tg-bridge">
      <summary>Use {name || 'it'} here through a bridge</summary>
      <p class="tg-wrap">
        On your computer, run it behind supergateway, which serves it over Streamable HTTP to this page only
        (it runs the program the file names: check it first):
      </p>
      <ScrollText>
        <code>{command}</code>
      </ScrollText>
      <CopyButton text={() => command} label={`Copy the bridge command for ${name || 'this entry'}`} />
      <p class="tg-wrap">
        Then add <code>{BRIDGED_URL}</code>. Environment values the file gives it are not in the command: set
        them in that shell. Keep port 8000 closed to other machines.
      </p>
    </details>
  );
}

function RemoteRow({
  row,
  change,
}: {
  row: Row & { kind: 'remote' };
  change: (patch: Partial<Row>) => void;
}) {
  const id = `tg-import-${row.key}`;
  const headerNames = Object.keys(row.headers ?? {});
  return (
    <>
      <input
        id={id}
        type="checkbox"
        checked={row.chosen}
        onChange={(e) => change({ chosen: (e.currentTarget as HTMLInputElement).checked })}
      />
      <label for={id} class="tg-wrap">
        <strong>{row.name || row.url}</strong> {row.name ? <code>{redactUrl(row.url)}</code> : null}
        {row.transport === 'sse' ? ' (HTTP+SSE)' : ''}
      </label>
      {headerNames.length > 0 && (
        <div>
          <input
            id={`${id}-headers`}
            type="checkbox"
            checked={row.withHeaders}
            onChange={(e) => change({ withHeaders: (e.currentTarget as HTMLInputElement).checked })}
          />
          <label for={`${id}-headers`}>
            Also send its headers: {headerNames.join(', ')} (values from the file, not shown; kept sealed)
          </label>
        </div>
      )}
      {row.notes.length > 0 && <p class="tg-muted tg-wrap">Note: {row.notes.join('; ')}.</p>}
    </>
  );
}

function ExportPart({ controller }: { controller: PanelController }) {
  const choice = useSignal<ExportFormat>('vscode');
  const servers = controller.servers.value.filter((server) => server.config.url);
  const names = serverNames(controller.servers.value);
  const exported = servers.map((server) => ({
    name: names(server.id),
    url: redactUrl(server.config.url!),
    transport: server.config.httpTransport === 'sse' ? ('sse' as const) : ('http' as const),
  }));
  const text = writeServerList(exported, choice.value);
  const spec = EXPORTS.find((item) => item.format === choice.value)!;
  const hidden = servers.some(
    (server) => server.config.headers || redactUrl(server.config.url!) !== server.config.url,
  );

  if (servers.length === 0)
    return (
      <div class="tg-export">
        <h3>Export</h3>
        <p class="tg-muted">No server with a URL to export yet.</p>
      </div>
    );
  return (
    <div class="tg-export">
      <h3>Export</h3>
      <label for="tg-export-format">Format</label>
      <select
        id="tg-export-format"
        value={choice.value}
        onChange={(e) => {
          choice.value = (e.currentTarget as HTMLSelectElement).value as ExportFormat;
        }}
      >
        {EXPORTS.map((item) => (
          <option key={item.format} value={item.format}>
            {item.label}
          </option>
        ))}
      </select>
      {hidden && (
        <p class="tg-muted">
          Headers and secrets in URLs are left out: add them in the other client yourself.
        </p>
      )}
      <ScrollText class="tg-export-text">{text}</ScrollText>
      <div class="tg-row">
        <CopyButton text={() => text} label="Copy the exported servers" />
        <button
          type="button"
          onClick={() => {
            const link = document.createElement('a');
            link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
            link.download = spec.file;
            link.click();
            setTimeout(() => URL.revokeObjectURL(link.href), 0);
          }}
        >
          Download {spec.file}
        </button>
      </div>
    </div>
  );
}
