/**
 * The worker's side of a tab's WebMCP tools (webmcp-relay.ts sends them from a turned-on site): the
 * tools become the server "This page" (id `webmcp:<origin>`) of the worker's controller, through the
 * same transport the widget uses over `document.modelContext` (src/transport/webmcp-page.ts). So the
 * side panel lists them, and the person's and a consented site's calls pass the gate (schema checks,
 * the catalog's poisoning checks, trust, the dialog, the audit log) before the relay runs them.
 *
 * One tab per origin is "This page": the last one whose tools arrived. Its server goes when that
 * tab's port closes (the tab closed or navigated, the worker stopped) or the site is turned off.
 */

import type { Controller } from '../src/session/index.js';
import type { ChromeRuntimePort } from '../src/transport/index.js';
import { type ModelContextLike, WebMcpPageTransport } from '../src/transport/index.js';
import type { RelayedTool, RelayMessage } from './webmcp-protocol.js';

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
  /** The site was turned off: its tab's tools leave the panel at once. */
  closeOrigin(origin: string): void;
}

export function createPageToolsHost(
  controller: Pick<Controller, 'servers' | 'addServer' | 'removeServer'>,
): PageToolsHost & { serve(port: ChromeRuntimePort, origin: string): void } {
  /** The port whose tab is "This page" for each origin now. */
  const current = new Map<string, ChromeRuntimePort>();

  const drop = async (origin: string) => {
    const id = pageToolsId(origin);
    if (controller.servers.value.some((server) => server.id === id))
      await controller.removeServer(id).catch(() => undefined);
  };

  return {
    serve(port, origin) {
      const context = new RelayedModelContext(port);
      current.set(origin, port);
      port.onDisconnect.addListener(() => {
        context.gone();
        if (current.get(origin) !== port) return;
        current.delete(origin);
        void drop(origin);
      });
      // The newest tab of the origin replaces the one before it.
      void drop(origin).then(() => {
        if (current.get(origin) !== port) return;
        return controller.addServer({
          id: pageToolsId(origin),
          label: 'This page',
          address: origin,
          transport: new WebMcpPageTransport(context, origin),
        });
      });
    },
    closeOrigin(origin) {
      const port = current.get(origin);
      current.delete(origin);
      port?.disconnect();
      void drop(origin);
    },
  };
}
