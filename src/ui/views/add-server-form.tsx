/**
 * "+ Add server": a URL (its scheme may be left out: see server-input.ts), a configuration pasted
 * from another MCP client, or the address of a page hosting a server over postMessage. What could
 * not be used is named; a server that could not connect is shown at the field, with Edit (change the
 * address and try again, replacing it) and Remove. Its own chunk: most visits never add a server.
 */

import type { Signal } from '@preact/signals';
import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { type PanelController, type ServerConfig, serverNames } from '../../session/index.js';
import type { ConnectionFix, DoctorAccess } from '../connection-fix.js';
import { lazyView } from '../lazy.js';
import { readServerInput } from './server-input.js';
import { DiagnoseServer, FailureAdvice } from './server-notices.js';
import type { AddFormState } from './servers-view.js';

// Importing a file or exporting the list: rarer still than adding a server.
const ServerTransfer = lazyView(() => import('./server-transfer.js').then((m) => m.ServerTransfer));

/** "Name: value" lines → headers; blank lines ignored. Returns an error sentence for a bad line. */
function parseHeaderLines(text: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) return `Header line ${index + 1} needs the form "Name: value".`;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export function AddServerForm({
  controller,
  form,
  closable,
  fix,
  access,
}: {
  controller: PanelController;
  form: Signal<AddFormState>;
  /** False while the list is empty: the form is then the only thing to do. */
  closable: boolean;
  /** The host's own fix for a failed connection, first (connection-fix.ts). */
  fix?: ConnectionFix | undefined;
  /** The host's way past CORS, offered in a diagnosis (connection-fix.ts). */
  access?: DoctorAccess | undefined;
}) {
  const kind = useSignal<'http' | 'page'>('http');
  const headers = useSignal('');
  const problem = useSignal('');
  const notes = useSignal<string[]>([]);
  const busy = useSignal(false);
  const transfer = useSignal(false);
  const field = useRef<HTMLInputElement>(null);
  const framesAllowed = controller.serverKinds?.includes('frame') ?? true;
  const state = form.value;
  const set = (change: Partial<AddFormState>) => {
    form.value = { ...form.value, ...change };
  };
  // Opened by "+ Add server" or Edit: the field is where the person goes next.
  useEffect(() => {
    if (closable) field.current?.focus();
  }, [state.replacing]);

  const servers = controller.servers.value;
  const names = serverNames(servers);
  const failedHere = servers.filter(
    (server) =>
      state.failed.includes(server.id) && server.state === 'failed' && server.errorCause !== 'declined',
  );

  const configsOf = (): ServerConfig[] | undefined => {
    if (kind.value === 'page') {
      try {
        return [{ frameUrl: new URL(state.text.trim(), location.href).href }];
      } catch {
        problem.value =
          'Enter the address of the page that hosts the server, for example https://tools.example.com/mcp.html.';
        return undefined;
      }
    }
    const read = readServerInput(state.text);
    if (!read.ok) {
      problem.value = read.problem;
      return undefined;
    }
    const typed = parseHeaderLines(headers.value);
    if (typeof typed === 'string') {
      problem.value = typed;
      return undefined;
    }
    notes.value = read.ignored.length ? [`Left out: ${read.ignored.join('; ')}.`] : [];
    return read.servers.map((found) => {
      const merged = { ...found.headers, ...typed };
      return {
        url: found.url,
        ...(found.label ? { label: found.label } : {}),
        ...(Object.keys(merged).length ? { headers: merged } : {}),
      };
    });
  };

  const add = async (event: Event) => {
    event.preventDefault();
    problem.value = '';
    notes.value = [];
    const configs = configsOf();
    if (!configs) {
      field.current?.focus();
      return;
    }
    busy.value = true;
    // Shown because the list was empty: it stays open once the list has servers, with what it says.
    set({ open: true });
    const failed: string[] = [];
    const added: string[] = [];
    try {
      // Edit: the server being fixed makes room for what replaces it. Other failures stay listed.
      const replaced = state.replacing;
      if (replaced && servers.some((server) => server.id === replaced))
        await controller.removeServer(replaced).catch(() => undefined);
      set({ failed: [], replacing: undefined });
      for (const config of configs) {
        try {
          const result = await controller.addServer(config);
          if (result.state === 'failed' && result.errorCause !== 'declined') failed.push(result.id);
          else added.push(result.label);
        } catch (error) {
          problem.value = (error as Error).message;
        }
      }
      if (failed.length === 0 && !problem.value) set({ text: '', failed: [] });
      else set({ failed });
      if (added.length > 1) notes.value = [...notes.value, `Added ${added.length} servers.`];
    } finally {
      busy.value = false;
    }
  };

  const describedBy = [
    problem.value || failedHere.length ? 'tg-add-problem' : '',
    notes.value.length ? 'tg-add-notes' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <>
      <form class="tg-add-server" aria-label="Add a server" onSubmit={add}>
        {framesAllowed && (
          <>
            <label for="tg-server-kind">Connect to</label>
            <select
              id="tg-server-kind"
              value={kind.value}
              onChange={(e) => {
                kind.value = (e.currentTarget as HTMLSelectElement).value as 'http' | 'page';
              }}
            >
              <option value="http">an MCP endpoint (Streamable HTTP or HTTP+SSE)</option>
              <option value="page">a page hosting a server (postMessage, in a hidden frame)</option>
            </select>
          </>
        )}
        <label for="tg-server-url">
          {kind.value === 'page' ? 'Server page URL' : 'Server URL, or a pasted configuration'}
        </label>
        <input
          id="tg-server-url"
          ref={field}
          // Plain text with a URL keyboard: our own message explains a bad address better than the browser's.
          type="text"
          inputMode="url"
          spellcheck={false}
          required
          aria-invalid={problem.value || failedHere.length ? 'true' : undefined}
          aria-describedby={describedBy || undefined}
          placeholder={
            kind.value === 'page' ? 'https://tools.example.com/mcp.html' : 'https://example.com/mcp'
          }
          value={state.text}
          onInput={(e) => set({ text: (e.currentTarget as HTMLInputElement).value })}
        />
        {kind.value === 'http' && (
          <p class="tg-help">
            For example <code>https://example.com/mcp</code> or <code>localhost:3000/mcp</code> (a local
            address gets http://, any other https://), or paste <code>{'{"mcpServers": {…}}'}</code> from
            another MCP client.
          </p>
        )}
        <div id="tg-add-problem" role="alert">
          {problem.value && <p class="tg-error">{problem.value}</p>}
          {failedHere.map((server) => (
            <div key={server.id} class="tg-error tg-add-failed" data-add-failed={server.id}>
              <FailureAdvice
                server={server}
                fix={fix}
                lead={
                  <>
                    <strong>{names(server.id)}</strong> could not connect:{' '}
                  </>
                }
              />
              <div class="tg-row">
                <button
                  type="button"
                  onClick={() => {
                    set({
                      replacing: server.id,
                      text: server.config.url ?? server.config.frameUrl ?? state.text,
                    });
                    field.current?.focus();
                    field.current?.select();
                  }}
                >
                  Edit
                </button>
                <button type="button" onClick={() => void controller.retry(server.id)}>
                  Retry
                </button>
                <button
                  type="button"
                  onClick={() => {
                    void controller.removeServer(server.id).catch(() => undefined);
                    set({ failed: state.failed.filter((id) => id !== server.id), text: '' });
                  }}
                >
                  Remove
                </button>
                <DiagnoseServer server={server} name={names(server.id)} access={access} />
              </div>
            </div>
          ))}
        </div>
        {notes.value.length > 0 && (
          <div id="tg-add-notes" role="status" class="tg-muted tg-wrap">
            {notes.value.map((note) => (
              <p key={note}>{note}</p>
            ))}
          </div>
        )}
        <details hidden={kind.value === 'page'}>
          <summary>Custom headers</summary>
          <label for="tg-server-headers">One per line, “Name: value” (kept in memory, never logged)</label>
          <textarea
            id="tg-server-headers"
            rows={3}
            value={headers.value}
            onInput={(e) => {
              headers.value = (e.currentTarget as HTMLTextAreaElement).value;
            }}
          />
        </details>
        <div class="tg-row">
          <button type="submit" class="tg-allow" disabled={busy.value}>
            {busy.value ? 'Connecting…' : state.replacing ? 'Save and connect' : 'Add server'}
          </button>
          {closable && (
            <button
              type="button"
              onClick={() => set({ open: false, failed: [], replacing: undefined, text: '' })}
            >
              Close
            </button>
          )}
        </div>
      </form>
      {transfer.value ? (
        <ServerTransfer controller={controller} onClose={() => (transfer.value = false)} />
      ) : (
        <button
          type="button"
          class="tg-transfer-toggle"
          onClick={() => {
            transfer.value = true;
            // Shown because the list was empty: it stays open while servers are imported into it.
            set({ open: true });
          }}
        >
          Import a file or export the list…
        </button>
      )}
    </>
  );
}
