/**
 * The extension's service worker: it owns the server connections, the gate, the policy store and
 * the audit log (one IndexedDB at the extension's origin). Extension pages mirror its state over a
 * "toolgate-panel" port; content scripts relay web pages over "toolgate-page" ports.
 *
 * Those content scripts exist only on sites the person turned on (an optional host permission per
 * exact origin, see page-scripts.ts). A port from any other page is refused, and turning a site off
 * revokes its tools, cancels its running calls and closes its pages' ports.
 *
 * Chrome stops idle workers and may stop busy ones. On the next start the audit log marks calls the
 * stopped worker had sent as interrupted (its session lock is gone), and servers reconnect: the
 * worker only starts because a page or panel asked for something, so connecting then is on demand.
 */

import { effect } from '@preact/signals';
import { createStore, get, set } from 'idb-keyval';
import type { SignInOptions } from '../src/auth/index.js';
import { forgetCallerGrants } from '../src/gate/index.js';
import { evalAllowed, evalVerdict } from '../src/schema/index.js';
import { type Controller, createController, type ServerConfig } from '../src/session/index.js';
import { followAuditCollector } from './audit-export.js';
import { bufferPort } from './buffered-port.js';
import { isSiteOrigin } from './origins.js';
import { type PageGateway, servePage } from './page-gateway.js';
import { PAGE_PORT, parsePageRequest } from './page-protocol.js';
import { enabledOrigins, injectIntoOpenTabs, syncPageScripts } from './page-scripts.js';
import { createPageToolsHost } from './page-tools-host.js';
import type { Refusal } from './refusal-backoff.js';
import { servePanel } from './remote/controller-host.js';
import { PANEL_PORT } from './remote/wire.js';
import { forgetServerOrigins, SERVER_ORIGINS_KEY, serverOrigins } from './server-access.js';
import { createAuthOriginWatch } from './sign-in/auth-origins.js';
import { managedClients } from './sign-in/managed-clients.js';
import { createSignInPrompts } from './sign-in/prompts.js';
import { extensionSignIn } from './sign-in/server-auth.js';
import { sessionAuthStore } from './sign-in/session-store.js';
import { createSiteAccess, type SiteGrant } from './site-access.js';
import { originOfPattern, sitePattern } from './site-patterns.js';
import { WEBMCP_PORT, WEBMCP_RECONNECT } from './webmcp-protocol.js';

/** What is kept of a server across restarts; its headers live in session storage (memory only). */
interface SavedServer {
  id: string;
  url: string;
  label?: string;
}

const store = createStore('toolgate-extension', 'state');
/** The audit log's export to the collector an enterprise policy names (for the diagnostics). */
let auditExport: ReturnType<typeof followAuditCollector> | undefined;

async function loadServers(withSignIn: (config: ServerConfig) => ServerConfig): Promise<ServerConfig[]> {
  const saved = ((await get<SavedServer[]>('servers', store)) ?? []).filter((server) => server.url);
  const secrets = (await chrome.storage.session.get('headers')).headers as
    | Record<string, Record<string, string>>
    | undefined;
  return saved.map((server) =>
    withSignIn({
      id: server.id,
      url: server.url,
      ...(server.label ? { label: server.label } : {}),
      ...(secrets?.[server.id] ? { headers: secrets[server.id] } : {}),
    }),
  );
}

async function start() {
  // The probe the gate's validator uses, run once now: MV3 forbids eval in the worker, so every
  // schema is checked by the interpreting validator and Ajv is never compiled (and never errs).
  evalAllowed();
  // Scripts registered by an older version, or left behind by a permission removed while no
  // worker ran, are brought in line with what the person has turned on.
  void syncPageScripts().catch((error: unknown) =>
    console.error('Toolgate could not update its page scripts:', error),
  );
  const siteAccess = await createSiteAccess({
    load: async () => (await get<SiteGrant[]>('sites', store)) ?? [],
    save: (grants) => set('sites', grants, store),
    loadRefusals: async () => (await get<Refusal[]>('site-refusals', store)) ?? [],
    saveRefusals: (refusals) => set('site-refusals', refusals, store),
  });
  // Signing in (sign-in/*): asked in the side panel, done in Chrome's web auth flow, tokens kept in
  // session storage so a worker Chrome stopped while idle does not ask the person again.
  let controller: Controller | undefined;
  const signIns = createSignInPrompts(
    (serverId) => controller?.servers.value.find((server) => server.id === serverId)?.label ?? serverId,
  );
  const signInBase = { prompts: signIns, store: sessionAuthStore(), preRegistered: await managedClients() };
  const serverIdOf = (auth: SignInOptions) =>
    controller?.servers.value.find((server) => server.config.auth === auth)?.id;
  // Authorization servers that refuse CORS to the extension, seen through each server's fetch.
  const authOrigins = createAuthOriginWatch();
  // Every server by URL may sign in; nothing of OAuth runs until one answers 401.
  const withSignIn = (config: ServerConfig): ServerConfig => {
    if (!config.url || config.auth) return config;
    const auth = extensionSignIn({ ...signInBase, serverIdOf });
    return { ...config, auth, fetch: authOrigins.fetchFor(config.url, () => serverIdOf(auth)) };
  };
  controller = createController({
    servers: await loadServers(withSignIn),
    // The worker keeps its servers itself (saveServers, headers in session storage only).
    keepServers: false,
    personLabel: 'you',
    // MV3 forbids eval here: schemas are interpreted, and Ajv is not even in this file.
    schemaEngine: 'cfworker',
  });
  const { auditLog } = await controller.ready;
  // An organisation's collector, named by enterprise policy: the log and its signed heads go there.
  if (auditLog)
    auditExport = followAuditCollector(auditLog, {
      serverUrl: (id) => controller?.servers.value.find((server) => server.id === id)?.config.url,
      resourceAttributes: { 'service.version': chrome.runtime.getManifest().version },
    });

  const saveServers = async () => {
    const configs = controller.servers.value.filter((server) => server.config.url);
    await set(
      'servers',
      configs.map(
        (server): SavedServer => ({
          id: server.id,
          url: server.config.url!,
          ...(server.config.label ? { label: server.config.label } : {}),
        }),
      ),
      store,
    );
    const headers: Record<string, Record<string, string>> = {};
    for (const server of configs) if (server.config.headers) headers[server.id] = server.config.headers;
    await chrome.storage.session.set({ headers });
  };
  // The panel's add and remove also update what the next worker start reconnects to.
  const panelController = {
    ...controller,
    addServer: async (config: ServerConfig) => {
      const state = await controller.addServer(withSignIn(config));
      await saveServers();
      return state;
    },
    removeServer: async (id: string) => {
      signIns.dropServer(id);
      authOrigins.clear(id);
      await controller.removeServer(id);
      await saveServers();
    },
  };

  // A server that connected got past its authorization server: what it refused before is over.
  effect(() => {
    for (const server of controller.servers.value)
      if (server.state === 'connected') authOrigins.clear(server.id);
  });
  // The toolbar badge counts what waits for the person, so a page's request is seen with the panel closed.
  effect(() => {
    const count =
      controller.approvals.value.length + siteAccess.consents.value.length + signIns.pending.value.length;
    void chrome.action.setBadgeText({ text: count ? String(count) : '' });
  });
  // Chrome stops a worker after 30 s without events; an extension API call counts as one. Keep it
  // alive while calls run or the person is deciding, and let it sleep otherwise.
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  effect(() => {
    const busy =
      controller.running.value.length +
        controller.approvals.value.length +
        siteAccess.consents.value.length +
        signIns.working.value >
      0;
    if (busy && !keepAlive) keepAlive = setInterval(() => void chrome.runtime.getPlatformInfo(), 20_000);
    if (!busy && keepAlive) {
      clearInterval(keepAlive);
      keepAlive = undefined;
    }
  });

  // Each turned-on site's WebMCP tools, as the server "This page" (page-tools-host.ts). Tabs whose
  // relay lost a worker that slept come back now, so the panel lists their tools again.
  const pageTools = createPageToolsHost(controller, siteAccess);
  void askRelaysBack().catch(() => undefined);

  return { controller, panelController, siteAccess, signIns, authOrigins, pageTools };
}

const started = start();
started.catch((error: unknown) => console.error('Toolgate could not start:', error));

/** The page sessions open now, by origin, so turning a site off can close them. */
const gateways = new Map<string, Set<PageGateway>>();

// Listeners are registered synchronously (Chrome only wakes a worker for listeners added at once);
// messages that arrive while the worker starts are buffered, not lost.
chrome.runtime.onConnect.addListener((rawPort) => {
  const port = bufferPort(rawPort);
  const sender = rawPort.sender;
  const fromPage = rawPort.name === PAGE_PORT || rawPort.name === WEBMCP_PORT;
  const turnedOn: Promise<string[]> = fromPage ? enabledOrigins() : Promise.resolve([]);
  void Promise.all([started, turnedOn]).then(
    ([{ panelController, controller, siteAccess, signIns, authOrigins, pageTools }, enabled]) => {
      if (rawPort.name === PANEL_PORT && sender?.id === chrome.runtime.id && isExtensionPage(sender.url)) {
        servePanel({ port, controller: panelController, siteAccess, signIns, authOrigins, auditExport });
      } else if (
        rawPort.name === PAGE_PORT &&
        sender?.tab &&
        sender.frameId === 0 &&
        isSiteOrigin(sender.origin)
      ) {
        const origin = sender.origin;
        // A page of a site that was turned off still runs the script it was given: it is told so.
        if (!enabled.includes(origin)) return refusePage(port, origin);
        const gateway = servePage({
          port,
          origin,
          pageTitle: sender.tab.title ?? '',
          controller,
          siteAccess,
        });
        const open = gateways.get(origin) ?? new Set();
        gateways.set(origin, open.add(gateway));
        rawPort.onDisconnect.addListener(() => open.delete(gateway));
      } else if (
        rawPort.name === WEBMCP_PORT &&
        sender?.tab &&
        sender.frameId === 0 &&
        isSiteOrigin(sender.origin) &&
        enabled.includes(sender.origin)
      ) {
        // The tab's own WebMCP tools, sent by the relay of a site the person turned on.
        pageTools.serve(port, sender.origin);
      } else {
        rawPort.disconnect();
      }
      port.release();
    },
    () => rawPort.disconnect(),
  );
});

/**
 * Answers what a page of a turned-off site sent with a sentence saying so, then closes its port.
 * The bridge opens its port to send a request, so one always follows; the port closes only after
 * that answer, because a port closed first (the request still on its way) reaches the page as
 * "interrupted" instead of saying what to do.
 */
function refusePage(port: ReturnType<typeof bufferPort>, origin: string): void {
  let closed = false;
  port.onMessage.addListener((message) => {
    if (closed) return;
    const request = parsePageRequest(message);
    if (request.id)
      port.postMessage({
        id: request.id,
        ok: false,
        error: {
          message: `Toolgate is not turned on for ${origin}: the person can turn it on in Toolgate's Sites tab.`,
          kind: 'not-enabled',
        },
      });
    closed = true;
    port.disconnect();
  });
  port.release();
}

const exactOrigins = (permissions: chrome.permissions.Permissions) =>
  (permissions.origins ?? []).map(originOfPattern).filter((origin): origin is string => origin !== undefined);

// The person turned a site on (Chrome granted its host permission, from the Sites tab or
// chrome://extensions): its pages get the bridge from now on, and its open tabs at once. An origin
// granted only to reach a server (server-access.ts) gets nothing on its pages.
chrome.permissions.onAdded.addListener((permissions) => {
  void (async () => {
    await syncPageScripts();
    const sites = await enabledOrigins();
    await Promise.all(
      exactOrigins(permissions)
        .filter((o) => sites.includes(o))
        .map(injectIntoOpenTabs),
    );
  })().catch((error: unknown) => console.error('Toolgate could not turn a site on:', error));
});

// A server origin the person turned on as a site left the record: its pages get the bridge now.
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local' || !(SERVER_ORIGINS_KEY in changes)) return;
  const before = (changes[SERVER_ORIGINS_KEY]?.oldValue as string[] | undefined) ?? [];
  void (async () => {
    await syncPageScripts();
    const sites = await enabledOrigins();
    await Promise.all(before.filter((origin) => sites.includes(origin)).map(injectIntoOpenTabs));
  })().catch((error: unknown) => console.error('Toolgate could not turn a site on:', error));
});

// Turned off: no more scripts, no more tools, and what its pages have running is cancelled.
chrome.permissions.onRemoved.addListener((permissions) => {
  void (async () => {
    await syncPageScripts();
    const { siteAccess, controller, pageTools } = await started;
    // A server origin whose permission went (from chrome://extensions too) is no longer reached.
    const gone = exactOrigins(permissions);
    if ((await serverOrigins()).some((origin) => gone.includes(origin))) await forgetServerOrigins(gone);
    const { policy } = await controller.ready;
    for (const origin of gone) {
      if (siteAccess.grantOf(origin)) await siteAccess.revoke(origin);
      // Its remembered approvals ("Always allow") go too: turned on again, the site is asked again.
      await forgetCallerGrants(policy, { kind: 'site', label: origin });
      // Its tabs' WebMCP tools leave the panel at once.
      pageTools.closeOrigin(origin);
      for (const gateway of gateways.get(origin) ?? [])
        gateway.close(`Toolgate was turned off for ${origin}: its access to the person's tools ended.`);
    }
  })().catch((error: unknown) => console.error('Toolgate could not turn a site off:', error));
});

/** For the worker's DevTools console (chrome://extensions, "service worker"): what it is doing. */
Object.assign(globalThis, {
  toolgateDiagnostics: async () => {
    const { controller, siteAccess } = await started;
    return {
      // false: this worker's CSP forbids eval, so schemas are checked by the interpreting validator.
      evalAllowed: evalVerdict(),
      // Which engine checked schemas, and whether Ajv was ever compiled (never, in this worker).
      validator: await controller.ready.then(async ({ validator }) => ({
        engine: await validator.engine(),
        ajvCompiles: validator.stats().ajvCompiles,
        cfworkerBuilds: validator.stats().cfworkerBuilds,
      })),
      servers: controller.servers.value.map(({ id, state, tools }) => ({ id, state, tools: tools.length })),
      running: controller.running.value.length,
      sites: siteAccess.sites.value.map((site) => site.origin),
      auditExport: auditExport?.state() ?? 'not started',
    };
  },
});

/** Open tabs of turned-on sites: their relay (if the page has WebMCP) opens its port again. */
async function askRelaysBack(): Promise<void> {
  for (const origin of await enabledOrigins()) {
    const tabs = await chrome.tabs.query({ url: sitePattern(origin) });
    for (const tab of tabs)
      if (tab.id !== undefined)
        void chrome.tabs.sendMessage(tab.id, { toolgate: WEBMCP_RECONNECT }).catch(() => undefined);
  }
}

function isExtensionPage(url: string | undefined): boolean {
  return Boolean(url?.startsWith(`chrome-extension://${chrome.runtime.id}/`));
}

chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: false });
});
