/**
 * The toolbar popup: what waits for the person (each approval with "Review in side panel" and
 * "Deny"), each server's state, "Open side panel", and, on a site not turned on, "Let … use your
 * tools". It is not the panel squeezed: deciding on a call (its arguments, its warnings) happens in
 * the side panel, which the popup opens. Its own small bundle: no views of the widget, no controller.
 */

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { EMPTY_POPUP_STATE, followWorker, type PopupConnection, type PopupState } from './popup-state.js';
import { PANEL_PORT, type WireApproval, type WireServer } from './remote/wire.js';
import { activeTabOrigin, watchTurnedOnSites } from './site-switch.js';
import { TurnOnButton } from './views/turn-on-button.js';

/** The window the popup belongs to: chrome.sidePanel.open needs it, inside the click. */
let windowId: number | undefined;
void chrome.windows.getCurrent().then((current) => {
  windowId = current.id;
});

/**
 * Opens the side panel in this window. Called straight from a click: Chrome allows it only while
 * handling the person's gesture, so nothing is awaited before it.
 */
function openSidePanel(onProblem: (text: string) => void): void {
  if (windowId === undefined) {
    onProblem('Toolgate could not tell which window this is: open the side panel from Chrome’s menu.');
    return;
  }
  chrome.sidePanel.open({ windowId }).then(
    () => window.close(),
    (error: Error) => onProblem(`The side panel did not open: ${error.message}`),
  );
}

function stateText(server: WireServer): string {
  switch (server.state) {
    case 'connected':
      return `Connected · ${server.tools.length} ${server.tools.length === 1 ? 'tool' : 'tools'}`;
    case 'connecting':
      return 'Connecting…';
    case 'closed':
      return 'Disconnected';
    case 'failed':
      return server.errorCause === 'declined'
        ? 'Not signed in'
        : server.errorCause === 'cors'
          ? 'Failed: blocked by CORS'
          : server.errorCause === 'down'
            ? 'Failed: not answering'
            : 'Failed';
  }
}

/** The state's colour family: one dot per state, the text beside it says the same in words. */
function dotClass(server: WireServer): string {
  if (server.state === 'failed') return server.errorCause === 'declined' ? 'idle' : 'bad';
  return server.state === 'connected' ? 'ok' : server.state === 'connecting' ? 'busy' : 'idle';
}

function toolTitle({ request }: WireApproval): string {
  const tool = request.pinned.tool;
  return tool.title ?? tool.annotations?.title ?? tool.name;
}

function askedBy({ request }: WireApproval): string {
  const { kind, label } = request.caller;
  if (kind === 'site') return `Asked by the web site ${label ?? ''}`.trim();
  if (kind === 'mcp-app') return 'Asked by an MCP App';
  if (kind === 'person') return 'Asked by you';
  return `Asked by ${label ?? 'the page Toolgate runs in'}`;
}

function Popup({ connection, state }: { connection: PopupConnection; state: PopupState }) {
  const [problem, setProblem] = useState('');
  const [site, setSite] = useState<string | undefined>(undefined);
  const [turnedOn, setTurnedOn] = useState<string[] | undefined>(undefined);
  useEffect(() => {
    void activeTabOrigin().then(setSite);
    return watchTurnedOnSites(setTurnedOn);
  }, []);
  const open = () => openSidePanel(setProblem);
  const labelOf = (serverId: string) =>
    state.servers?.find((server) => server.id === serverId)?.label ?? serverId;
  const waiting = state.approvals.length + state.signIns.length + state.consents.length;

  return (
    <>
      <header class="tg-popup-head">
        <h1>Toolgate</h1>
        <button type="button" class="tg-primary" onClick={open}>
          Open side panel
        </button>
      </header>
      {problem && (
        <p class="tg-error" role="alert">
          {problem}
        </p>
      )}
      <section aria-labelledby="tg-waiting">
        <h2 id="tg-waiting">{waiting === 0 ? 'Nothing waits for you' : `Waiting for you (${waiting})`}</h2>
        {waiting > 0 && (
          <ul class="tg-list" aria-label="Waiting for you">
            {state.approvals.map((approval) => {
              const title = toolTitle(approval);
              const { request } = approval;
              return (
                <li key={request.invocationId} class="tg-waiting" data-approval={request.invocationId}>
                  <p>
                    <strong>{title}</strong>
                    {title !== request.pinned.tool.name && <code> {request.pinned.tool.name}</code>} on{' '}
                    {request.serverLabel}
                  </p>
                  <p class="tg-muted">
                    {askedBy(approval)}
                    {request.annotations.claims.destructiveHint === true
                      ? " · Destructive (the server's claim)"
                      : ''}
                  </p>
                  <div class="tg-actions">
                    <button
                      type="button"
                      class="tg-primary"
                      aria-label={`Review in side panel: ${title}`}
                      onClick={open}
                    >
                      Review in side panel
                    </button>
                    <button
                      type="button"
                      aria-label={`Deny ${title}`}
                      onClick={() =>
                        connection.answerApproval(request.invocationId, {
                          action: 'deny',
                          decidedBy: 'you, in the extension’s popup',
                        })
                      }
                    >
                      Deny
                    </button>
                  </div>
                </li>
              );
            })}
            {state.signIns.map((signIn) => (
              <li key={signIn.id} class="tg-waiting">
                <p>
                  Sign in to <strong>{labelOf(signIn.serverId)}</strong>?
                </p>
                <button type="button" onClick={open}>
                  Answer in side panel
                </button>
              </li>
            ))}
            {state.consents.map((consent) => (
              <li key={consent.id} class="tg-waiting">
                <p>
                  <strong>{consent.origin}</strong> asks to use your tools
                </p>
                <button type="button" onClick={open}>
                  Answer in side panel
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="tg-servers">
        <h2 id="tg-servers">Servers</h2>
        {state.servers === undefined ? (
          <p class="tg-muted">Reading Toolgate’s servers…</p>
        ) : state.servers.length === 0 ? (
          <p class="tg-muted">No servers yet: add one in the side panel.</p>
        ) : (
          <ul class="tg-list" aria-label="Servers">
            {state.servers.map((server) => (
              <li key={server.id} class="tg-server-status" data-server={server.id}>
                <span class={`tg-dot tg-dot-${dotClass(server)}`} aria-hidden="true" />
                <span class="tg-server-label">{server.label}</span>
                <span class="tg-state">{stateText(server)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {site && turnedOn && !turnedOn.includes(site) && (
        <section aria-label="This site" class="tg-site">
          <TurnOnButton origin={site} turnedOn={turnedOn} />
        </section>
      )}
    </>
  );
}

function PopupPage() {
  const [state, setState] = useState<PopupState>(EMPTY_POPUP_STATE);
  const [connection] = useState(() =>
    followWorker(() => chrome.runtime.connect({ name: PANEL_PORT }), setState),
  );
  useEffect(() => () => connection.close(), [connection]);
  return <Popup connection={connection} state={state} />;
}

render(<PopupPage />, document.getElementById('toolgate')!);
