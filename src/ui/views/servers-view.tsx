/**
 * Servers: add one by URL (transport chosen automatically) or by the address of a page that hosts a
 * server over postMessage; see its state and errors, retry, trust.
 */

import { useSignal } from '@preact/signals';
import { TRUST_EXPLANATION, TRUSTED_EXPLANATION } from '../../gate/index.js';
import {
  type PanelController,
  type ServerNames,
  type ServerState,
  serverAddress,
  serverNames,
} from '../../session/index.js';
import type { ConnectionFix } from '../connection-fix.js';

/** "Name: value" lines → headers; blank lines ignored. Returns an error sentence for a bad line. */
export function parseHeaderLines(text: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) return `Header line ${index + 1} needs the form "Name: value".`;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export function ServersView({
  controller,
  connectionFix,
}: {
  controller: PanelController;
  connectionFix?: ConnectionFix | undefined;
}) {
  const url = useSignal('');
  const kind = useSignal<'http' | 'page'>('http');
  const headers = useSignal('');
  const problem = useSignal('');
  const busy = useSignal(false);
  const framesAllowed = controller.serverKinds?.includes('frame') ?? true;
  const names = serverNames(controller.servers.value);
  const unconnected = controller.servers.value.filter((server) => server.state === 'failed' && server.error);
  // A declined sign-in is the person's choice, not a failure: shown calmly, with the way to sign in.
  const notSignedIn = unconnected.filter((server) => server.errorCause === 'declined');
  const failed = unconnected.filter((server) => server.errorCause !== 'declined');

  const add = async (event: Event) => {
    event.preventDefault();
    problem.value = '';
    let parsed: URL;
    try {
      parsed = new URL(url.value.trim(), kind.value === 'page' ? location.href : undefined);
    } catch {
      // The form says what is wrong with the address instead.
      problem.value =
        kind.value === 'page'
          ? 'Enter the address of the page that hosts the server, for example https://tools.example.com/mcp.html.'
          : 'Enter the server’s full MCP endpoint URL, for example https://example.com/mcp.';
      return;
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      problem.value = 'Only http: and https: server URLs are supported.';
      return;
    }
    const headerMap = parseHeaderLines(headers.value);
    if (typeof headerMap === 'string') {
      problem.value = headerMap;
      return;
    }
    busy.value = true;
    try {
      await controller.addServer(
        kind.value === 'page' ? { frameUrl: parsed.href } : { url: parsed.href, headers: headerMap },
      );
      url.value = '';
      headers.value = '';
    } catch (error) {
      problem.value = (error as Error).message;
    } finally {
      busy.value = false;
    }
  };

  return (
    <section class="tg-view" aria-labelledby="tg-servers-heading">
      <h2 id="tg-servers-heading">Servers</h2>
      <ConnectionProblems failed={failed} names={names} controller={controller} fix={connectionFix} />
      {notSignedIn.length > 0 && <NotSignedIn servers={notSignedIn} names={names} controller={controller} />}
      <form class="tg-add-server" onSubmit={add}>
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
        <label for="tg-server-url">{kind.value === 'page' ? 'Server page URL' : 'Server URL'}</label>
        <input
          id="tg-server-url"
          // Plain text with a URL keyboard: our own message explains a bad address better than the browser's.
          type="text"
          inputMode="url"
          spellcheck={false}
          required
          placeholder={
            kind.value === 'page' ? 'https://tools.example.com/mcp.html' : 'https://example.com/mcp'
          }
          value={url.value}
          onInput={(e) => {
            url.value = (e.currentTarget as HTMLInputElement).value;
          }}
        />
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
        <button type="submit" disabled={busy.value}>
          {busy.value ? 'Connecting…' : 'Add server'}
        </button>
        {problem.value && (
          <p class="tg-error" role="alert">
            {problem.value}
          </p>
        )}
      </form>
      {controller.servers.value.length === 0 ? (
        <p class="tg-empty">
          No servers yet. Add one by its MCP endpoint URL above; its tools then appear in the Tools tab.
        </p>
      ) : (
        <ul class="tg-server-list" aria-label="Servers">
          {controller.servers.value.map((server) => (
            <ServerRow key={server.id} server={server} name={names(server.id)} controller={controller} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Servers the person chose not to sign in to yet: what that means, and a button to sign in now. */
function NotSignedIn({
  servers,
  names,
  controller,
}: {
  servers: readonly ServerState[];
  names: ServerNames;
  controller: PanelController;
}) {
  return (
    <section class="tg-not-signed-in" aria-label="Not signed in">
      <h3>{servers.length === 1 ? 'Not signed in' : `Not signed in to ${servers.length} servers`}</h3>
      <ul>
        {servers.map((server) => (
          <li key={server.id} data-not-signed-in={server.id}>
            <p class="tg-wrap">{server.error}</p>
            <button type="button" onClick={() => void controller.retry(server.id)}>
              Sign in to {names(server.id)}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What a failure's card advises: a host's own fix first (connection-fix.ts), then the widget's. */
function FailureAdvice({ server, fix }: { server: ServerState; fix: ConnectionFix | undefined }) {
  const ownFix = fix?.(server);
  return (
    <>
      {ownFix && <div class="tg-host-fix">{ownFix}</div>}
      <p class="tg-wrap">
        {ownFix ? 'Other fix: ' : ''}
        {server.error}
      </p>
    </>
  );
}

/**
 * Failed connections, first thing in the view whatever the length of the list: what happened, what
 * to do, and Retry next to it; one card per failure.
 */
function ConnectionProblems({
  failed,
  names,
  controller,
  fix,
}: {
  failed: readonly ServerState[];
  names: ServerNames;
  controller: PanelController;
  fix: ConnectionFix | undefined;
}) {
  return (
    <div role="alert" class="tg-connect-problems-region">
      {failed.length > 0 && (
        <section class="tg-connect-problems" aria-label="Connection problems">
          <h3>
            {failed.length === 1
              ? 'A server could not connect'
              : `${failed.length} servers could not connect`}
          </h3>
          <ul>
            {failed.map((server) => (
              <li
                key={server.id}
                class={`tg-connect-problem tg-cause-${server.errorCause ?? 'other'}`}
                data-problem={server.id}
              >
                <p>
                  <strong>{names(server.id)}</strong>
                  {server.errorCause === 'cors'
                    ? ' · blocked by CORS'
                    : server.errorCause === 'down'
                      ? ' · not answering'
                      : ''}
                </p>
                <FailureAdvice server={server} fix={fix} />
                {server.errorDetail && server.errorDetail !== server.error && (
                  <details>
                    <summary>Technical details</summary>
                    <p class="tg-wrap tg-muted">{server.errorDetail}</p>
                  </details>
                )}
                <button
                  type="button"
                  aria-label={`Retry ${names(server.id)}`}
                  onClick={() => void controller.retry(server.id)}
                >
                  Retry
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function ServerRow({
  server,
  name,
  controller,
}: {
  server: ServerState;
  name: string;
  controller: PanelController;
}) {
  const trustId = `tg-trust-${server.id}`;
  const warnings = server.warnings ?? [];
  const address = serverAddress(server);
  return (
    <li class={`tg-server tg-state-${server.state}`} data-server={server.id}>
      <div class="tg-server-head">
        <strong class="tg-wrap">{name}</strong>
        <span class="tg-badge" role="status">
          {server.state === 'connected'
            ? `connected · ${server.tools.length} tools${server.era ? ` · ${server.era}` : ''}${warningCount(warnings.length)}`
            : server.state === 'failed'
              ? server.errorCause === 'declined'
                ? 'not signed in'
                : 'failed: see above'
              : server.state}
        </span>
      </div>
      <div class="tg-muted tg-wrap" title={address}>
        {address}
        {address !== server.id && name !== server.id && !name.endsWith(`(${server.id})`)
          ? ` · id ${server.id}`
          : ''}
      </div>
      {warnings.length > 0 && <CatalogWarnings id={`tg-warnings-${server.id}`} warnings={warnings} />}
      {server.signedIn && (
        <div class="tg-row tg-signed-in">
          <span>
            Signed in at <code>{originOf(server.signedIn.issuer)}</code>
            {server.signedIn.scopes.length > 0 ? ` (${server.signedIn.scopes.join(' ')})` : ''}
          </span>
          {controller.signOut && (
            <button
              type="button"
              aria-label={`Sign out of ${name}`}
              onClick={() => void controller.signOut!(server.id).catch(() => undefined)}
            >
              Sign out
            </button>
          )}
        </div>
      )}
      <div class="tg-row">
        <label for={trustId}>Trust</label>
        <select
          id={trustId}
          value={server.trust}
          onChange={(e) =>
            void controller.setTrust(
              server.id,
              (e.currentTarget as HTMLSelectElement).value as ServerState['trust'],
            )
          }
        >
          <option value="untrusted">Untrusted (default)</option>
          <option value="trusted">Trusted</option>
        </select>
        {(server.state === 'failed' || server.state === 'closed') && (
          <button type="button" onClick={() => void controller.retry(server.id)}>
            {server.errorCause === 'declined' ? 'Sign in' : 'Retry'}
          </button>
        )}
        {server.state === 'connected' && controller.ping && (
          <PingButton server={server} controller={controller} />
        )}
        <button type="button" onClick={() => void controller.removeServer(server.id)}>
          Remove
        </button>
      </div>
      <p class="tg-muted">{server.trust === 'trusted' ? TRUSTED_EXPLANATION : TRUST_EXPLANATION}</p>
    </li>
  );
}

function originOf(issuer: string): string {
  try {
    return new URL(issuer).origin;
  } catch {
    // An issuer that is not a URL is shown as given.
    return issuer;
  }
}

/** Ping with its round trip time next to it (the figure stays until the next ping). */
function PingButton({ server, controller }: { server: ServerState; controller: PanelController }) {
  const busy = useSignal(false);
  const ping = server.ping;
  return (
    <>
      <button
        type="button"
        disabled={busy.value}
        onClick={() => {
          busy.value = true;
          void controller.ping!(server.id)
            .catch(() => undefined)
            .finally(() => {
              busy.value = false;
            });
        }}
      >
        Ping
      </button>
      <span class="tg-ping" aria-live="polite">
        {busy.value
          ? 'pinging…'
          : ping && 'ms' in ping
            ? `${ping.ms} ms${ping.method === 'ping' ? '' : ` (${ping.method}: 2026-07-28 has no ping)`}`
            : ping
              ? `no answer: ${ping.error}`
              : ''}
      </span>
    </>
  );
}

const warningCount = (n: number) => (n === 0 ? '' : ` · ${n} ${n === 1 ? 'warning' : 'warnings'}`);

/** Problems with the server's tool list, each with its reason (catalog-warnings.ts words them). */
function CatalogWarnings({ id, warnings }: { id: string; warnings: readonly string[] }) {
  return (
    <div class="tg-warning tg-catalog-warnings">
      <p id={id}>
        <strong>About this server’s tool list</strong>
      </p>
      <ul aria-labelledby={id}>
        {warnings.map((warning) => (
          <li key={warning}>{warning}</li>
        ))}
      </ul>
    </div>
  );
}
