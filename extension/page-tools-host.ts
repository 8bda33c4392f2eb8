/**
 * The worker's side of a tab's WebMCP tools (webmcp-relay.ts sends them from a turned-on site): the
 * tools become the server "This page" (id `webmcp:<origin>`) of the worker's controller, through the
 * same transport the widget uses over `document.modelContext` (src/transport/webmcp-page.ts). So the
 * side panel lists them, and the person's and a consented site's calls pass the gate (schema checks,
 * the catalog's poisoning checks, trust, the dialog, the audit log) before the relay runs them.
 *
 * One tab per origin is "This page": the last one whose tools arrived. Its server goes when that
 * tab's port closes (the tab closed or navigated, the worker stopped) or the site is turned off.
 *
 * The other way: where the person let a site's browser agent use the tools granted to the site
 * (Sites), the relay registers them with `document.modelContext`, and each call the agent makes
 * comes here and passes the gate as caller `agent` (its own approvals, never the person's or the
 * site's), asked in the panel and recorded. Turning that off, a revocation or turning the site off
 * withdraws them and cancels what the agent has running.
 */

import { effect } from '@preact/signals';
import { errorForModel } from '../src/gate/index.js';
import { isJsonObject } from '../src/protocol/index.js';
import type { Controller } from '../src/session/index.js';
import type { ChromeRuntimePort } from '../src/transport/index.js';
import { type ModelContextLike, WebMcpPageTransport } from '../src/transport/index.js';
import { toolsFor } from './page-gateway.js';
import type { SiteAccess } from './site-access.js';
import type { AgentTool, RelayedTool, RelayMessage, RelayRequest } from './webmcp-protocol.js';

/** The server id of a site's page tools, as the widget names its own. */
const pageToolsId = (origin: string) => `webmcp:${origin}`;

/** `document.modelContext` in a tab, reached over the relay's port. */
class RelayedModelContext extends EventTarget implements ModelContextLike {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  constructor(private readonly port: ChromeRuntimePort) {
    super();
    port.onMessage.addListener((raw: unknown) => {
      const message = raw as RelayMessage;
      if ('event' in message) {
        if (message.event === 'toolchange') this.dispatchEvent(new Event('toolchange'));
        return;
      }
      const pending = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.ok) pending?.resolve(message.value);
      else pending?.reject(new Error(String(message.error)));
    });
  }

  private ask<T>(request: { op: 'list' } | { op: 'call'; name: string; input: unknown }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = this.nextId++;
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.port.postMessage({ ...request, id });
    });
  }

  /** The tab went away: what waits for it fails with a sentence saying so. */
  gone(): void {
    for (const pending of this.waiting.values())
      pending.reject(new Error('The page closed or navigated before its tool answered.'));
    this.waiting.clear();
  }

  async getTools(): Promise<RelayedTool[]> {
    const tools = await this.ask<unknown>({ op: 'list' });
    return Array.isArray(tools) ? (tools as RelayedTool[]) : [];
  }

  async executeTool(tool: RelayedTool, input?: unknown): Promise<string> {
    const value = await this.ask<unknown>({ op: 'call', name: tool.name, input: input ?? {} });
    return typeof value === 'string' ? value : JSON.stringify(value);
  }

  async registerTool(): Promise<void> {
    throw new Error('The extension registers no tools in a page.');
  }
}

interface PageToolsHost {
  /** The site was turned off: its tabs' tools leave the panel, and the agent loses the person's, at once. */
  closeOrigin(origin: string): void;
}

type HostController = Pick<Controller, 'servers' | 'addServer' | 'removeServer' | 'call'>;

/** The person's tools the site's browser agent may call: those granted to the site, when the person let it. */
function agentToolsFor(origin: string, siteAccess: SiteAccess, controller: HostController): AgentTool[] {
  const grant = siteAccess.grantOf(origin);
  if (!grant?.agent) return [];
  return toolsFor(grant, controller)
    .filter((tool) => !tool.serverId.startsWith('webmcp:'))
    .map((tool) => ({
      serverId: tool.serverId,
      toolName: tool.name,
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
    }));
}

/** Resolves once the server is no longer connecting (or at once when it is not), or after 30 s. */
function settled(controller: HostController, serverId: string, signal: AbortSignal): Promise<void> {
  const done = () =>
    controller.servers.value.find((server) => server.id === serverId)?.state !== 'connecting';
  if (done()) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(finish, 30_000);
    const stop = effect(() => {
      if (done()) queueMicrotask(finish);
    });
    signal.addEventListener('abort', finish, { once: true });
  });
}

export function createPageToolsHost(
  controller: HostController,
  siteAccess: SiteAccess,
): PageToolsHost & { serve(port: ChromeRuntimePort, origin: string): void } {
  /** The port whose tab is "This page" for each origin now. */
  const current = new Map<string, ChromeRuntimePort>();
  /** Every relay's port, with what ends its session. */
  const sessions = new Map<ChromeRuntimePort, { origin: string; end(): void }>();

  const drop = async (origin: string) => {
    const id = pageToolsId(origin);
    if (controller.servers.value.some((server) => server.id === id))
      await controller.removeServer(id).catch(() => undefined);
  };

  return {
    serve(port, origin) {
      const context = new RelayedModelContext(port);
      let ended = false;
      let listed = false;
      // "This page" is listed once the tab has tools of its own (a page without any shows nothing).
      const consider = async () => {
        if (listed || ended) return;
        const tools = await context.getTools().catch(() => []);
        if (tools.length === 0 || listed || ended) return;
        listed = true;
        current.set(origin, port);
        // The newest tab of the origin replaces the one before it.
        await drop(origin);
        if (current.get(origin) !== port) return;
        await controller.addServer({
          id: pageToolsId(origin),
          label: 'This page',
          address: origin,
          transport: new WebMcpPageTransport(context, origin),
        });
      };
      context.addEventListener('toolchange', () => void consider());
      void consider();

      // The person's tools for the site's browser agent: the list again whenever it may have changed.
      // Accepted: the relay keeps what it registered for the agent across a worker that sleeps.
      port.postMessage({ op: 'hello' } satisfies RelayRequest);
      let sentExposed: string | undefined;
      const expose = () => {
        // A worker that just started is still connecting: a granted server's tools are not listed
        // yet, and an early list would withdraw them from the agent (and fail the call that woke it).
        const grant = siteAccess.grantOf(origin);
        const connecting = (serverId: string) =>
          controller.servers.value.find((server) => server.id === serverId)?.state === 'connecting';
        if (grant?.agent && grant.tools.some((tool) => connecting(tool.serverId))) return;
        const tools = agentToolsFor(origin, siteAccess, controller);
        const text = JSON.stringify(tools);
        if (text === sentExposed || ended) return;
        sentExposed = text;
        port.postMessage({ op: 'expose', tools } satisfies RelayRequest);
      };
      const agentCalls = new Map<number, AbortController>();
      const allowed = (serverId: string, toolName: string) =>
        siteAccess.grantOf(origin)?.agent === true &&
        !serverId.startsWith('webmcp:') &&
        siteAccess.allows(origin, serverId, toolName);
      const stopAccess = siteAccess.onChange((changed) => {
        if (changed !== origin) return;
        expose();
        // Withdrawn: what the agent has running stops now.
        for (const abort of agentCalls.values())
          abort.abort(new DOMException('Access was withdrawn', 'AbortError'));
      });
      const stopServers = effect(() => {
        void controller.servers.value;
        expose();
      });
      const onMessage = (raw: unknown) => {
        const message = raw as RelayMessage;
        if (!('event' in message)) return;
        if (message.event === 'agentCancel') return agentCalls.get(message.callId)?.abort();
        if (message.event !== 'agentCall') return;
        const { callId, serverId, toolName } = message;
        const answer = (result: unknown) => {
          if (!ended) port.postMessage({ op: 'agentReply', callId, result } satisfies RelayRequest);
        };
        if (typeof serverId !== 'string' || typeof toolName !== 'string' || !allowed(serverId, toolName))
          return answer({
            isError: true,
            content: [
              { type: 'text', text: `The person has not let this site's agent use ${String(toolName)}.` },
            ],
          });
        const abort = new AbortController();
        agentCalls.set(callId, abort);
        // A worker woken by this very call is still connecting to its servers: wait for that.
        settled(controller, serverId, abort.signal)
          .then(() =>
            controller.call({
              serverId,
              toolName,
              arguments: isJsonObject(message.input) ? message.input : {},
              caller: { kind: 'agent', label: origin },
              signal: abort.signal,
            }),
          )
          .then(
            (outcome) => outcome.result,
            // Denied, invalid, failed: said to the agent as a tool error, in words it can act on.
            (error: unknown) => ({
              isError: true,
              content: [{ type: 'text', text: errorForModel(error).text }],
            }),
          )
          .then(answer)
          .finally(() => agentCalls.delete(callId));
      };
      port.onMessage.addListener(onMessage);

      const end = () => {
        if (ended) return;
        ended = true;
        sessions.delete(port);
        context.gone();
        stopAccess();
        stopServers();
        for (const abort of agentCalls.values())
          abort.abort(new DOMException('The page went away', 'AbortError'));
        port.onMessage.removeListener(onMessage);
        if (current.get(origin) !== port) return;
        current.delete(origin);
        void drop(origin);
      };
      sessions.set(port, { origin, end });
      port.onDisconnect.addListener(end);
    },
    closeOrigin(origin) {
      for (const [port, session] of [...sessions])
        if (session.origin === origin) {
          session.end();
          port.disconnect();
        }
      current.delete(origin);
      void drop(origin);
    },
  };
}
