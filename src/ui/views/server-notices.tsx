/**
 * What shows in Servers only when something needs the person: sign-ins waiting for them, failed
 * connections (with Retry, Edit and Remove), problems with a server's tool list. A chunk of its own,
 * loaded after the first screen: most first screens have none of these.
 */

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PanelController, PendingSignIn, ServerNames, ServerState } from '../../session/index.js';
import type { ConnectionFix, DoctorAccess } from '../connection-fix.js';
import { lazyView } from '../lazy.js';
import type { DoctorTarget } from './doctor-view.js';

/** The doctor's report: its own chunk, loaded when someone presses Diagnose. */
export const DoctorView = lazyView(() => import('./doctor-view.js').then((m) => m.DoctorView));

/**
 * "Diagnose" beside a failure (a server with a URL): opens the doctor's step-by-step report below.
 * A button of its own name, so every failure offers the same way in.
 */
function DiagnoseButton(target: DoctorTarget) {
  const { name } = target;
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-label="Diagnose"
        title={`Diagnose ${name}`}
        onClick={() => setOpen(!open)}
      >
        Diagnose
      </button>
      {open && <DoctorView {...target} />}
    </>
  );
}

/** Diagnose for a server that has an address: what it was configured with, and how it last failed. */
export function DiagnoseServer({
  server,
  name,
  access,
}: {
  server: ServerState;
  name: string;
  access?: DoctorAccess | undefined;
}) {
  const { url, headers, auth } = server.config;
  if (!url) return null;
  return (
    <DiagnoseButton
      url={url}
      name={name}
      headers={headers}
      auth={auth}
      lastError={server.error}
      access={access}
    />
  );
}

/**
 * Servers waiting for the person to sign in: a sign-in asked for at load (its card; the dialog opens
 * only when the person presses "Sign in"), and servers the person chose not to sign in to yet.
 */
export function SignInCards({
  waiting,
  declined,
  names,
  controller,
}: {
  waiting: readonly PendingSignIn[];
  declined: readonly ServerState[];
  names: ServerNames;
  controller: PanelController;
}) {
  const count = waiting.length + declined.length;
  return (
    <section class="tg-not-signed-in" aria-label="Not signed in">
      <h3>{count === 1 ? 'Not signed in' : `Not signed in to ${count} servers`}</h3>
      <ul>
        {waiting.map((pending) => (
          <li key={pending.id} data-sign-in-card={pending.serverId}>
            <p class="tg-wrap">
              {names(pending.serverId)} asks you to sign in at <code>{originOf(pending.issuer)}</code> before
              it connects.
            </p>
            <div class="tg-row">
              <button type="button" class="tg-allow" onClick={() => pending.show?.()}>
                Sign in to {names(pending.serverId)}
              </button>
              <button type="button" onClick={pending.decline}>
                Not now
              </button>
            </div>
          </li>
        ))}
        {declined.map((server) => (
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

/**
 * Failed connections, first thing in the view whatever the length of the list: what happened, what
 * to do, and Retry, Edit and Remove next to it.
 */
export function ConnectionProblems({
  failed,
  names,
  controller,
  onEdit,
  fix,
  access,
}: {
  failed: readonly ServerState[];
  names: ServerNames;
  controller: PanelController;
  onEdit: (server: ServerState) => void;
  fix: ConnectionFix | undefined;
  /** The host's way past CORS, offered in a diagnosis (connection-fix.ts). */
  access: DoctorAccess | undefined;
}) {
  return (
    <section class="tg-connect-problems" aria-label="Connection problems">
      <h3>
        {failed.length === 1 ? 'A server could not connect' : `${failed.length} servers could not connect`}
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
            <div class="tg-row">
              <button
                type="button"
                aria-label={`Retry ${names(server.id)}`}
                onClick={() => void controller.retry(server.id)}
              >
                Retry
              </button>
              <FixButtons server={server} name={names(server.id)} controller={controller} onEdit={onEdit} />
              <DiagnoseServer server={server} name={names(server.id)} access={access} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Edit (a server added by address) and Remove, beside a failure. */
function FixButtons({
  server,
  name,
  controller,
  onEdit,
}: {
  server: ServerState;
  name: string;
  controller: PanelController;
  onEdit: (server: ServerState) => void;
}) {
  return (
    <>
      {(server.config.url || server.config.frameUrl) && (
        <button type="button" aria-label={`Edit ${name}`} onClick={() => onEdit(server)}>
          Edit
        </button>
      )}
      <button
        type="button"
        aria-label={`Remove ${name}`}
        onClick={() => void controller.removeServer(server.id).catch(() => undefined)}
      >
        Remove
      </button>
    </>
  );
}

/** Problems with the server's tool list, each with its reason (catalog-warnings.ts words them). */
export function CatalogWarnings({ id, warnings }: { id: string; warnings: readonly string[] }) {
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

function originOf(issuer: string): string {
  try {
    return new URL(issuer).origin;
  } catch {
    // An issuer that is not a URL is shown as given.
    return issuer;
  }
}

/** What a failure's card advises: a host's own fix first (connection-fix.ts), then the widget's. */
export function FailureAdvice({
  server,
  fix,
  lead,
}: {
  server: ServerState;
  fix: ConnectionFix | undefined;
  /** Said before the widget's advice when there is no host fix (e.g. who could not connect). */
  lead?: ComponentChildren;
}) {
  const ownFix = fix?.(server);
  return (
    <>
      {ownFix && <div class="tg-host-fix">{ownFix}</div>}
      <p class="tg-wrap">
        {ownFix ? 'Other fix: ' : lead}
        {server.error}
      </p>
    </>
  );
}
