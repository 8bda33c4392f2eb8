/**
 * One open MCP App: its UI resource read through the server, the sandbox proxy frame, the host side
 * of the app protocol fed from the call that opened it (input, then result or cancellation), and
 * what the person needs around it (which app, from which server, for which call and how that call is
 * going, what it may reach, its requests to open links and for browser features, a Close button).
 * Loaded only when an app is shown (app-frame.tsx).
 */

import { signal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import {
  type AppCallState,
  type AppPermission,
  AppSession,
  appCaller,
  appDocument,
  buildCsp,
  callToolForApp,
  createSandboxFrame,
  type HostContext,
  hostContextFor,
  loadUiResource,
  type OpenApp,
  type OpenApps,
  onThemeChange,
  recordAppShown,
  type UiResource,
  VIEW_SANDBOX,
} from '../../apps/index.js';
import { type AppIdentity, armDialog, type PanelController } from '../../session/index.js';

export interface AppViewProps {
  controller: PanelController;
  apps: OpenApps;
  app: OpenApp;
}

type Phase =
  | { phase: 'loading' }
  | { phase: 'starting' | 'running'; resource: UiResource; policy: string; origin: string }
  | { phase: 'closed'; reason: string }
  | { phase: 'failed'; message: string };

interface LinkQuestion {
  url: URL;
  answer: (open: boolean) => void;
}

const INITIAL_HEIGHT = 160;
const MIN_HEIGHT = 40;
const KEEP_REFUSALS = 3;

/** Permissions the person granted, per server and resource, for this page's lifetime. */
const grants = new Map<string, AppPermission[]>();

/** The one app shown full screen on this page, by id: a second one asking takes the place over. */
const fullscreenApp = signal<string | undefined>(undefined);

const STYLES = `.tg-app{margin:var(--tg-s2) 0;padding:0}
.tg-app-bordered{border:1px solid var(--tg-border);border-radius:var(--tg-radius);background:var(--tg-surface);padding:var(--tg-s2)}
.tg-app-head{display:flex;flex-wrap:wrap;gap:var(--tg-s2);align-items:baseline;justify-content:space-between;font-size:13px}
.tg-app-holder iframe{display:block;width:100%;border:0;background:var(--tg-bg);color-scheme:normal}
.tg-app-ask{border:1px solid var(--tg-accent);border-radius:var(--tg-radius);padding:var(--tg-s2);margin:var(--tg-s2) 0}
.tg-app-ask p{margin:0 0 var(--tg-s2);overflow-wrap:anywhere}
.tg-app-fullscreen{position:fixed;inset:0;z-index:2147482000;margin:0;border-radius:0;display:flex;flex-direction:column;overflow:auto;background:var(--tg-bg)}
.tg-app-fullscreen .tg-app-holder{flex:1 1 auto;min-height:0!important}
.tg-app-fullscreen .tg-app-holder iframe{height:100%!important}`;

export function AppView({ controller, apps, app }: AppViewProps) {
  const { serverId, resourceUri } = app;
  const key = `${serverId}\u0000${resourceUri}`;
  const [granted, setGranted] = useState<readonly AppPermission[]>(() => grants.get(key) ?? []);
  const [state, setState] = useState<Phase>({ phase: 'loading' });
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const [link, setLink] = useState<LinkQuestion>();
  const [refusals, setRefusals] = useState<readonly string[]>([]);
  const holder = useRef<HTMLDivElement>(null);
  const figure = useRef<HTMLElement>(null);
  const exitButton = useRef<HTMLButtonElement>(null);
  // Full screen: over the whole page (or side panel), above everything but Toolgate's own dialogs.
  const fullscreen = fullscreenApp.value === app.id;
  const maxHeight = controller.apps.options().maxHeight ?? 800;
  const session = useRef<AppSession | undefined>(undefined);
  const frame = useRef<HTMLIFrameElement | undefined>(undefined);
  const serverLabel = controller.servers.value.find((server) => server.id === serverId)?.label ?? serverId;
  // Read when the app starts; a new server label must not restart it.
  const startWith = useRef({ serverLabel });
  startWith.current = { serverLabel };

  useEffect(() => {
    const identity: AppIdentity = { serverId, resourceUri };
    const { tool } = app;
    const { serverLabel } = startWith.current;
    let live = true;
    let readyReported = false;
    let pendingLink: LinkQuestion | undefined;
    let stopFollowing: (() => void) | undefined;
    const stopTheme = onThemeChange((theme) => session.current?.hostContextChanged({ theme }));
    const launch = async () => {
      const read = controller.readResource?.bind(controller);
      if (!read) throw new Error('This panel cannot show MCP Apps: it cannot read resources from servers.');
      const resource = await loadUiResource(read, serverId, resourceUri);
      if (!live || !holder.current) return;
      const policy = buildCsp(resource.csp);
      const permissions = granted.filter((name) => resource.permissions.includes(name));
      const hosting = controller.apps.options();
      const sandbox = await createSandboxFrame({
        ...(hosting.sandboxUrl ? { sandboxUrl: hosting.sandboxUrl } : {}),
        ...(hosting.opaqueSandboxUrl ? { opaqueSandboxUrl: hosting.opaqueSandboxUrl } : {}),
        title: `MCP App ${resourceUri} from ${serverLabel}`,
        permissions,
      });
      const place = holder.current;
      if (!live || !place) return;
      sandbox.frame.style.height = `${INITIAL_HEIGHT}px`;
      frame.current = sandbox.frame;
      place.append(sandbox.frame);
      const current = new AppSession(
        sandbox.transport,
        {
          app: identity,
          html: appDocument(resource.html, policy),
          csp: resource.csp.csp,
          permissions,
          sandbox: VIEW_SANDBOX,
          hostContext: hostContextFor(tool, maxHeight),
        },
        {
          events: controller.apps,
          callTool: (name, args, signal) =>
            callToolForApp(controller, identity, name, args, signal).catch((error: unknown) => {
              const message = error instanceof Error ? error.message : String(error);
              if (live) setRefusals((list) => [message, ...list].slice(0, KEEP_REFUSALS));
              throw error;
            }),
          // Resources of the app's own server only, like its tools; asked as the app's reads.
          readResource: (uri) => read(serverId, uri, appCaller(identity)),
          confirmOpenLink: (url) =>
            new Promise<boolean>((resolve) => {
              // One question at a time: a second link while the first waits is refused.
              if (!live || pendingLink) return resolve(false);
              pendingLink = {
                url,
                answer: (open) => {
                  pendingLink = undefined;
                  if (live) setLink(undefined);
                  if (open) window.open(url.href, '_blank', 'noopener,noreferrer');
                  resolve(open);
                },
              };
              setLink(pendingLink);
            }),
          onSize: ({ height: reported }) => {
            if (reported === undefined || !live) return;
            const fitted = Math.round(Math.min(maxHeight, Math.max(MIN_HEIGHT, reported)));
            sandbox.frame.style.height = `${fitted}px`;
            setHeight(fitted);
            if (!readyReported) {
              readyReported = true;
              const call = app.call.peek();
              const now = Date.now();
              controller.apps.emit({
                type: 'ready',
                app: identity,
                msSinceResult: call.phase === 'done' ? now - call.finishedAt : Number.NaN,
                msSinceOpened: now - app.openedAt,
              });
            }
          },
          requestDisplayMode: (wanted) => {
            if (live && wanted === 'fullscreen') fullscreenApp.value = app.id;
            if (wanted === 'inline' && fullscreenApp.peek() === app.id) fullscreenApp.value = undefined;
            return fullscreenApp.peek() === app.id ? 'fullscreen' : 'inline';
          },
          onInitialized: () =>
            live && setState((now) => (now.phase === 'starting' ? { ...now, phase: 'running' } : now)),
          onRequestTeardown: () => void apps.close(app.id, 'the app asked to close'),
          onClosed: () => {
            sandbox.frame.remove();
            if (live)
              setState((now) =>
                now.phase === 'failed' ? now : { phase: 'closed', reason: 'the app ended' },
              );
            controller.apps.emit({ type: 'closed', app: identity, reason: 'the channel to the app ended' });
          },
        },
      );
      session.current = current;
      setState({ phase: 'starting', resource, policy, origin: sandbox.origin });
      controller.apps.emit({ type: 'shown', app: identity, csp: policy });
      // On record: which app, for which call, under which policy (before it can make a call).
      const sink = await controller.ready.then(({ auditLog }) => auditLog).catch(() => undefined);
      if (sink)
        await recordAppShown(sink, {
          serverId,
          resourceUri,
          toolName: tool.name,
          csp: policy,
          ignored: resource.csp.ignored,
        }).catch((error: unknown) =>
          // The app still shows (its calls are recorded one by one); the lost record is reported.
          console.warn(`Toolgate: the audit log could not record that ${resourceUri} was shown`, error),
        );
      if (!live) return;
      await sandbox.loaded;
      if (!live) return;
      await current.start();
      if (!live) return;
      // The call as it goes: its input now, then its result or its end without one. The session
      // holds them until the View is initialized, in this order, and sends each once.
      let ended = false;
      stopFollowing = app.call.subscribe((call) => {
        if (call.arguments) current.toolInput(call.arguments);
        if (ended || call.phase === 'running') return;
        ended = true;
        if (call.phase === 'done') current.toolResult(call.result);
        else current.toolCancelled(call.reason);
      });
    };
    /** Every way the app closes comes here through the store: teardown first, then the frame goes. */
    const teardown = async (reason: string) => {
      const current = session.current;
      session.current = undefined;
      await current?.teardown(reason);
      frame.current?.remove();
    };
    const unregister = apps.onTeardown(app.id, teardown);
    launch().catch((error: unknown) => {
      frame.current?.remove();
      if (live)
        setState({
          phase: 'failed',
          message: `The app ${resourceUri} could not be shown: ${error instanceof Error ? error.message : String(error)}`,
        });
    });
    return () => {
      live = false;
      if (fullscreenApp.peek() === app.id) fullscreenApp.value = undefined;
      unregister();
      stopTheme();
      stopFollowing?.();
      pendingLink?.answer(false);
      // The panel no longer shows this app (a restart, or the panel went): its frame is being removed.
      void session.current?.close();
      session.current = undefined;
      frame.current?.remove();
    };
  }, [controller, apps, app, serverId, resourceUri, granted]);

  useFullscreen({ fullscreen, figure, holder, exitButton, session, maxHeight });

  const shown = state.phase === 'starting' || state.phase === 'running' ? state : undefined;
  const bordered = shown?.resource.prefersBorder !== false;
  const asked = shown ? shown.resource.permissions.filter((name) => !granted.includes(name)) : [];
  return (
    <figure
      ref={figure}
      class={`tg-app${bordered ? ' tg-app-bordered' : ''}${fullscreen ? ' tg-app-fullscreen' : ''}`}
      data-display-mode={fullscreen ? 'fullscreen' : 'inline'}
      data-app={resourceUri}
      data-app-id={app.id}
      data-invocation={app.invocationId}
      data-app-state={state.phase}
      aria-label={`MCP App ${resourceUri}`}
      tabIndex={-1}
    >
      <style>{STYLES}</style>
      <figcaption class="tg-app-head">
        <span>
          App <code>{resourceUri}</code> from {serverLabel}, for {app.tool.name}
        </span>
        <span class="tg-row">
          {fullscreen && (
            <button
              type="button"
              ref={exitButton}
              onClick={() => {
                fullscreenApp.value = undefined;
              }}
            >
              Exit full screen
            </button>
          )}
          <button type="button" onClick={() => void apps.close(app.id, 'closed by the person')}>
            Close app
          </button>
        </span>
      </figcaption>
      <CallStatus toolName={app.tool.name} call={app.call.value} />
      {shown && <p class="tg-muted">{describeReach(shown.resource, shown.origin)}</p>}
      {shown && shown.resource.csp.ignored.length > 0 && (
        <p class="tg-warning">
          Toolgate ignored parts of the app's declared policy: {shown.resource.csp.ignored.join('; ')}.
        </p>
      )}
      {asked.length > 0 && (
        <PermissionAsk
          asked={asked}
          onAllow={() => {
            const next = [...granted, ...asked];
            grants.set(key, next);
            setGranted(next);
          }}
        />
      )}
      {link && <LinkAsk question={link} resourceUri={resourceUri} />}
      <div ref={holder} class="tg-app-holder" style={{ minHeight: shown ? `${height}px` : undefined }} />
      {state.phase === 'loading' && (
        <p class="tg-muted" role="status">
          Loading {resourceUri}…
        </p>
      )}
      {state.phase === 'failed' && (
        <p class="tg-error" role="alert">
          {state.message}
        </p>
      )}
      {state.phase === 'closed' && <p class="tg-muted">The app is closed ({state.reason}).</p>}
      {refusals.length > 0 && (
        <ul class="tg-muted" aria-label="App requests that did not succeed">
          {refusals.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/**
 * While the app is full screen: Escape (outside the app's own frame) and "Exit full screen" bring it
 * back inline; focus stays in it, except in Toolgate's dialogs above it; the View hears each change
 * of mode, with the size it has (host-context-changed).
 */
function useFullscreen({
  fullscreen,
  figure,
  holder,
  exitButton,
  session,
  maxHeight,
}: {
  fullscreen: boolean;
  figure: { current: HTMLElement | null };
  holder: { current: HTMLDivElement | null };
  exitButton: { current: HTMLButtonElement | null };
  session: { current: AppSession | undefined };
  maxHeight: number;
}) {
  const announced = useRef<'inline' | 'fullscreen'>('inline');
  // A layout effect: the keys and focus are watched from the moment the app is shown full screen,
  // before anything the person (or a test) does next.
  useLayoutEffect(() => {
    const mode = fullscreen ? 'fullscreen' : 'inline';
    const announce = () => {
      const box = holder.current?.getBoundingClientRect();
      const containerDimensions: HostContext['containerDimensions'] =
        fullscreen && box ? { width: Math.round(box.width), height: Math.round(box.height) } : { maxHeight };
      session.current?.hostContextChanged({ displayMode: mode, containerDimensions });
    };
    if (announced.current !== mode) {
      announced.current = mode;
      announce();
      if (!fullscreen) figure.current?.focus();
    }
    const place = figure.current;
    if (!fullscreen || !place) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      fullscreenApp.value = undefined;
    };
    // Anything behind the app is covered: focus that wanders there comes back, unless to a dialog.
    const onFocus = (event: FocusEvent) => {
      const path = event.composedPath();
      const allowed = path.some(
        (node) => node instanceof HTMLElement && (node === place || node.classList.contains('tg-backdrop')),
      );
      if (!allowed) exitButton.current?.focus();
    };
    // Inside the panel's shadow root a move between its elements never reaches the document: both.
    const root = place.getRootNode();
    const watched = root === document ? [document] : [root, document];
    place.addEventListener('keydown', onKey);
    for (const target of watched) target.addEventListener('focusin', onFocus as EventListener, true);
    addEventListener('resize', announce);
    return () => {
      place.removeEventListener('keydown', onKey);
      for (const target of watched) target.removeEventListener('focusin', onFocus as EventListener, true);
      removeEventListener('resize', announce);
    };
  }, [fullscreen]);
}

/** How the call that opened the app is going: running (with its progress), or ended without a result. */
function CallStatus({ toolName, call }: { toolName: string; call: AppCallState }) {
  if (call.phase === 'done') return null;
  if (call.phase === 'cancelled')
    return (
      <p class="tg-warning" data-app-call="cancelled">
        The call to {toolName} ended without a result ({call.reason}); the app was told.
      </p>
    );
  const progress = call.progress;
  const label = `${toolName} progress`;
  return (
    <div class="tg-row" role="status" data-app-call="running">
      <span class="tg-spinner" aria-hidden="true" />
      <span class="tg-muted">
        {toolName} is running; the app has its input and gets the result when it arrives
        {progress?.message ? ` (${progress.message})` : ''}.
      </span>
      {/* Determinate once the server gives a total, as in Activity. */}
      {progress?.total !== undefined ? (
        <progress aria-label={label} max={progress.total} value={progress.progress} />
      ) : (
        <progress aria-label={label} />
      )}
    </div>
  );
}

/** The app's permissions Toolgate did not grant, with the one button that grants them (armed: see LinkAsk). */
function PermissionAsk({ asked, onAllow }: { asked: readonly string[]; onAllow: () => void }) {
  const row = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => (row.current ? armDialog(row.current) : undefined), []);
  return (
    <div ref={row} class="tg-row">
      <span class="tg-muted">The app asks for {asked.join(', ')}; Toolgate did not grant it.</span>
      <button type="button" onClick={onAllow}>
        Allow {asked.join(', ')} and restart the app
      </button>
    </div>
  );
}

/** The app asks to open a link: armed like the panel's dialogs, since the app chooses when it appears. */
function LinkAsk({ question, resourceUri }: { question: LinkQuestion; resourceUri: string }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => (box.current ? armDialog(box.current) : undefined), []);
  useEffect(() => box.current?.focus(), []);
  return (
    <div
      ref={box}
      class="tg-app-ask"
      role="alertdialog"
      aria-label="The app wants to open a link"
      tabIndex={-1}
    >
      <p>
        The app <code>{resourceUri}</code> wants to open <strong>{question.url.href}</strong> in a new tab.
      </p>
      <div class="tg-row">
        <button type="button" onClick={() => question.answer(true)}>
          Open link
        </button>
        <button type="button" onClick={() => question.answer(false)}>
          Don't open
        </button>
      </div>
    </div>
  );
}

/**
 * Where the app may reach, from the policy Toolgate applies, and the one way out no page can close:
 * Chromium looks up (and connects to) the host of a navigation it then refuses, before the refusal.
 */
function describeReach(resource: UiResource, origin: string): string {
  const { connectDomains, resourceDomains, frameDomains } = resource.csp.csp;
  const parts = [
    connectDomains.length ? `may connect to ${connectDomains.join(', ')}` : 'no network access',
    ...(resourceDomains.length ? [`loads files from ${resourceDomains.join(', ')}`] : []),
    ...(frameDomains.length ? [`embeds pages from ${frameDomains.join(', ')}`] : []),
    'no WebRTC; opening other pages only through you',
  ];
  const where = origin === 'opaque' ? 'an isolated sandbox' : `a sandbox at ${origin}`;
  const hash = resource.sha256 ? ` (HTML sha256 ${resource.sha256.slice(0, 12)})` : '';
  return `Runs in ${where}; ${parts.join('; ')}${hash}. If it tries to open a site anyway, the browser sends that site no request but may look up its name and connect to it.`;
}
