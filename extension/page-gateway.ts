/**
 * The service worker's side of one page's bridge port. The origin comes from Chrome (the port's
 * sender), so a page can only ever act as itself; it sees only the tools granted to its origin, and
 * only its own calls' results. Every call goes through the controller, so through the gate: schema,
 * policy, the person's approval and the audit log. A revocation cancels what the site has running.
 */

import { effect } from '@preact/signals';
import type { ChromeRuntimePort } from '../src/transport/chrome-port.js';
import type { Controller } from '../src/ui/controller.js';
import {
  type AccessEvent,
  type BridgeReply,
  type PageRequest,
  parsePageRequest,
  type SiteTool,
} from './page-protocol.js';
import { toWireError } from './remote/wire.js';
import { type SiteAccess, SiteAccessError, type SiteGrant } from './site-access.js';

export interface PageGatewayOptions {
  port: ChromeRuntimePort;
  /** The page's exact origin, as Chrome reported the port's sender. */
  origin: string;
  pageTitle: string;
  controller: Pick<Controller, 'servers' | 'call'>;
  siteAccess: SiteAccess;
}

/** The granted tools that exist right now (connected server, tool listed, not switched off). */
export function toolsFor(grant: SiteGrant | undefined, controller: Pick<Controller, 'servers'>): SiteTool[] {
  if (!grant) return [];
  const tools: SiteTool[] = [];
  for (const server of controller.servers.value) {
    if (server.state !== 'connected') continue;
    for (const tool of server.tools) {
      if (server.disabled.has(tool.name)) continue;
      if (!grant.tools.some((item) => item.serverId === server.id && item.toolName === tool.name)) continue;
      tools.push({
        serverId: server.id,
        serverLabel: server.label,
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.description ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema,
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      });
    }
  }
  return tools;
}

export function servePage({ port, origin, pageTitle, controller, siteAccess }: PageGatewayOptions): void {
  const calls = new Map<string, { abort: AbortController; serverId: string; toolName: string }>();
  const closed = new AbortController();
  const send = (message: BridgeReply | AccessEvent) => {
    if (!closed.signal.aborted) port.postMessage(message);
  };
  const reply = (id: string, work: () => Promise<unknown>) =>
    work().then(
      (value) => send({ id, ok: true, value }),
      (error: unknown) => send({ id, ok: false, error: toWireError(error) }),
    );
  const noAccess = () =>
    new SiteAccessError(`${origin} has no access to Toolgate yet: call requestAccess() first.`);

  const handle = (request: PageRequest) => {
    switch (request.method) {
      case 'requestAccess':
        return reply(request.id, async () => {
          const grant = await siteAccess.request(origin, pageTitle, closed.signal);
          return toolsFor(grant, controller);
        });
      case 'listTools':
        return reply(request.id, async () => {
          const grant = siteAccess.grantOf(origin);
          if (!grant) throw noAccess();
          return toolsFor(grant, controller);
        });
      case 'cancel':
        calls.get(request.callId)?.abort.abort(new DOMException('Cancelled by the page', 'AbortError'));
        return reply(request.id, async () => null);
      case 'callTool':
        return reply(request.id, async () => {
          if (!siteAccess.grantOf(origin)) throw noAccess();
          if (!siteAccess.allows(origin, request.serverId, request.toolName))
            throw new SiteAccessError(
              `${origin} may not use ${request.toolName} on ${request.serverId}: the person did not grant it. Ask again with requestAccess().`,
            );
          const abort = new AbortController();
          calls.set(request.id, { abort, serverId: request.serverId, toolName: request.toolName });
          try {
            const outcome = await controller.call(
              request.serverId,
              request.toolName,
              request.arguments,
              { kind: 'site', label: origin },
              abort.signal,
            );
            // The site gets the tool's result, nothing of the gate's internals or the audit log.
            return outcome.result;
          } finally {
            calls.delete(request.id);
          }
        });
    }
  };

  const onMessage = (message: unknown) => {
    const request = parsePageRequest(message);
    if ('invalid' in request) {
      if (request.id)
        send({ id: request.id, ok: false, error: { message: request.invalid, kind: 'invalid-request' } });
      return;
    }
    void handle(request);
  };

  const stopAccess = siteAccess.onChange((changed) => {
    if (changed !== origin) return;
    const grant = siteAccess.grantOf(origin);
    // Revoked or narrowed: what is running without a grant stops now.
    for (const call of calls.values())
      if (!siteAccess.allows(origin, call.serverId, call.toolName))
        call.abort.abort(new DOMException(`Access for ${origin} was revoked`, 'AbortError'));
    send({ event: 'access', granted: Boolean(grant), tools: toolsFor(grant, controller) });
  });
  // Tools appear and go as servers connect and change: tell a granted page what it has now.
  let first = true;
  const stopTools = effect(() => {
    void controller.servers.value;
    if (first) {
      first = false;
      return;
    }
    const grant = siteAccess.grantOf(origin);
    if (grant) send({ event: 'access', granted: true, tools: toolsFor(grant, controller) });
  });

  port.onMessage.addListener(onMessage);
  port.onDisconnect.addListener(() => {
    closed.abort();
    for (const call of calls.values()) call.abort.abort(new DOMException('The page went away', 'AbortError'));
    stopAccess();
    stopTools();
    port.onMessage.removeListener(onMessage);
  });
}
