/**
 * Servers: the list first, each with a coloured status dot and its state in words; sign-ins waiting
 * for the person as cards (no dialog opens by itself on load); failed connections with Retry, Edit
 * and Remove; trust explained once under the list; "+ Add server" opens the add form (its own chunk,
 * add-server-form.tsx: a URL with or without scheme, or a pasted configuration).
 */

import { useSignal } from '@preact/signals';
import { TRUST_EXPLANATION, TRUSTED_EXPLANATION } from '../../gate/index.js';
import { type PanelController, type ServerState, serverAddress, serverNames } from '../../session/index.js';
import type { ConnectionFix, DoctorAccess } from '../connection-fix.js';
import { lazyView } from '../lazy.js';
import { safeIconSrc } from '../safe-media.js';

// Not needed for the first paint: the add form, and what shows only when something needs the person.
const AddServerForm = lazyView(() => import('./add-server-form.js').then((m) => m.AddServerForm));
const SignInCards = lazyView(() => import('./server-notices.js').then((m) => m.SignInCards));
const ConnectionProblems = lazyView(() => import('./server-notices.js').then((m) => m.ConnectionProblems));
const CatalogWarnings = lazyView(() => import('./server-notices.js').then((m) => m.CatalogWarnings));
const DoctorView = lazyView(() => import('./doctor-view.js').then((m) => m.DoctorView));

/** What the add form keeps while the view is open: its text, and the servers its last add left failed. */
export interface AddFormState {
  open: boolean;
  text: string;
  /** Servers the form added that could not connect: their problems show at the field, not above. */
  failed: readonly string[];
  /** The failed server the person chose to edit: replaced by what the form adds next. */
  replacing?: string | undefined;
}

const CSS = `.tg-dot{display:inline-block;width:10px;height:10px;border-radius:50%;flex:none;background:var(--tg-muted)}
.tg-dot-connected{background:var(--tg-ok)}.tg-dot-connecting{background:#bf8700}.tg-dot-sign-in{background:var(--tg-accent)}
.tg-dot-failed{background:var(--tg-danger)}.tg-dot-closed{background:transparent;border:2px solid var(--tg-muted)}
.tg-status{display:inline-flex;gap:6px;align-items:center}`;

/** The state a server's dot and label show; a sign-in waiting for the person counts as "needs sign-in". */
function statusOf(server: ServerState, signIn: boolean): { dot: string; text: string } {
  if (signIn || (server.state === 'failed' && server.errorCause === 'declined'))
    return { dot: 'sign-in', text: 'needs sign-in' };
  switch (server.state) {
    case 'connected':
      return {
        dot: 'connected',
        text: `connected · ${server.tools.length} tools${protocolOf(server)}${warningCount(server.warnings?.length ?? 0)}`,
      };
    case 'connecting':
      return { dot: 'connecting', text: 'connecting…' };
    case 'failed':
      return { dot: 'failed', text: 'failed' };
    default:
      return { dot: 'closed', text: 'connection closed' };
  }
}

/** The protocol in plain terms: the current revision by its date, an older one as "older protocol". */
function protocolOf(server: ServerState): string {
  const version = server.protocolVersion;
  if (server.era === 'modern') return version ? ` · protocol ${version}` : '';
  return version ? ` · older protocol (${version})` : server.era ? ' · older protocol' : '';
}

export function ServersView({
  controller,
  connectionFix,
  doctorAccess,
}: {
  controller: PanelController;
  /** The host's own fix for a failed connection, first in its card (connection-fix.ts). */
  connectionFix?: ConnectionFix | undefined;
  /** The host's way past CORS, offered in doctor reports (connection-fix.ts). */
  doctorAccess?: DoctorAccess | undefined;
}) {
  const servers = controller.servers.value;
  const form = useSignal<AddFormState>({ open: false, text: '', failed: [] });
  const names = serverNames(servers);
  const signIns = controller.signIns?.value ?? [];
  const onCard = signIns.filter((item) => item.onCard);
  const unconnected = servers.filter((server) => server.state === 'failed' && server.error);
  // A declined sign-in is the person's choice, not a failure: shown calmly, with the way to sign in.
  const notSignedIn = unconnected.filter((server) => server.errorCause === 'declined');
  // A failed add shows at the form's field; listed here too it would be said twice.
  const shownAtField = form.value.open ? form.value.failed : [];
  const failed = unconnected.filter(
    (server) => server.errorCause !== 'declined' && !shownAtField.includes(server.id),
  );
  const edit = (server: ServerState) => {
    form.value = {
      open: true,
      text: server.config.url ?? server.config.frameUrl ?? '',
      failed: [],
      replacing: server.id,
    };
  };
  const formOpen = form.value.open || servers.length === 0;

  return (
    <section class="tg-view" aria-labelledby="tg-servers-heading">
      <style>{CSS}</style>
      <h2 id="tg-servers-heading">Servers</h2>
      {(onCard.length > 0 || notSignedIn.length > 0) && (
        <SignInCards waiting={onCard} declined={notSignedIn} names={names} controller={controller} />
      )}
      <div role="alert" class="tg-connect-problems-region">
        {failed.length > 0 && (
          <ConnectionProblems
            failed={failed}
            names={names}
            controller={controller}
            onEdit={edit}
            fix={connectionFix}
            access={doctorAccess}
          />
        )}
      </div>
      {servers.length === 0 ? (
        <p class="tg-empty">
          No servers yet. Add one by its MCP endpoint URL; its tools then appear in the Tools tab.
        </p>
      ) : (
        <>
          <ul class="tg-server-list" aria-label="Servers">
            {servers.map((server) => (
              <ServerRow
                key={server.id}
                server={server}
                name={names(server.id)}
                signingIn={signIns.some((item) => item.serverId === server.id)}
                controller={controller}
                onEdit={() => edit(server)}
                access={doctorAccess}
              />
            ))}
          </ul>
          <p class="tg-muted tg-trust-note">
            <strong>Trust:</strong> {TRUST_EXPLANATION} {TRUSTED_EXPLANATION}
          </p>
        </>
      )}
      {controller.pageTools === 'missing' && (
        <p class="tg-muted tg-webmcp-missing">
          This browser has no WebMCP, so this page's own tools are not listed.
        </p>
      )}
      {formOpen ? (
        <AddServerForm
          controller={controller}
          form={form}
          closable={servers.length > 0}
          fix={connectionFix}
          access={doctorAccess}
        />
      ) : (
        <button
          type="button"
          class="tg-add-toggle"
          aria-expanded="false"
          onClick={() => {
            form.value = { ...form.value, open: true };
          }}
        >
          + Add server
        </button>
      )}
    </section>
  );
}

/**
 * The server's first icon that may load (https:, or a data: URL of a raster type: never SVG, never
 * script), as an <img>, which runs nothing; no credentials or referrer go with it.
 */
function ServerIcon({ server }: { server: ServerState }) {
  const src = server.icons?.map(safeIconSrc).find((value) => value !== undefined);
  if (!src) return null;
  return (
    <img
      class="tg-icon tg-server-icon"
      src={src}
      alt=""
      crossOrigin="anonymous"
      referrerPolicy="no-referrer"
    />
  );
}

function ServerRow({
  server,
  name,
  signingIn,
  controller,
  onEdit,
  access,
}: {
  server: ServerState;
  name: string;
  signingIn: boolean;
  controller: PanelController;
  onEdit: () => void;
  access: DoctorAccess | undefined;
}) {
  const trustId = `tg-trust-${server.id}`;
  const warnings = server.warnings ?? [];
  const address = serverAddress(server);
  const status = statusOf(server, signingIn);
  const diagnosing = useSignal(false);
  return (
    <li class={`tg-server tg-state-${server.state}`} data-server={server.id} data-status={status.dot}>
      <div class="tg-server-head">
        <span class={`tg-dot tg-dot-${status.dot}`} aria-hidden="true" />
        <ServerIcon server={server} />
        <strong class="tg-wrap">{name}</strong>
        <span class="tg-badge" role="status">
          {status.text}
        </span>
      </div>
      <div class="tg-muted tg-wrap" title={address}>
        {address}
        {address !== server.id && name !== server.id && !name.endsWith(`(${server.id})`)
          ? ` · id ${server.id}`
          : ''}
      </div>
      {warnings.length > 0 && <CatalogWarnings id={`tg-warnings-${server.id}`} warnings={warnings} />}
      {/* The server's own words to clients: text only, collapsed (it may be long). */}
      {server.instructions && (
        <details class="tg-instructions">
          <summary>Instructions from the server</summary>
          <p class="tg-wrap" style={{ whiteSpace: 'pre-wrap' }}>
            {server.instructions}
          </p>
        </details>
      )}
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
        {server.state === 'failed' &&
          server.errorCause !== 'declined' &&
          (server.config.url || server.config.frameUrl) && (
            <button type="button" onClick={onEdit}>
              Edit
            </button>
          )}
        {server.state === 'connected' && controller.ping && (
          <PingButton server={server} controller={controller} />
        )}
        <button type="button" onClick={() => void controller.removeServer(server.id)}>
          Remove
        </button>
        {server.kept && (
          <button
            type="button"
            aria-label={`Forget ${name}`}
            onClick={async () => {
              // Kept tokens go too, connected or not (a server that is down still has them at rest).
              if (server.signedIn || server.config.auth)
                await controller.signOut?.(server.id).catch(() => undefined);
              await controller.removeServer(server.id).catch(() => undefined);
            }}
          >
            Forget
          </button>
        )}
        {server.config.url && (
          <button
            type="button"
            aria-expanded={diagnosing.value}
            onClick={() => {
              diagnosing.value = !diagnosing.value;
            }}
          >
            Diagnose
          </button>
        )}
      </div>
      {diagnosing.value && server.config.url && (
        <DoctorView
          url={server.config.url}
          name={name}
          headers={server.config.headers}
          auth={server.config.auth}
          lastError={server.error}
          access={access}
        />
      )}
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
