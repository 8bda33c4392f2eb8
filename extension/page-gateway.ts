/**
 * The service worker's side of one page's bridge port. The origin comes from Chrome (the port's
 * sender), so a page can only ever act as itself; it sees only the tools granted to its origin, and
 * only its own calls' results. Every call goes through the controller, so through the gate: schema,
 * policy, the person's approval and the audit log. A revocation cancels every call the site has
 * running (the gateway tells them apart by its own ids, whatever ids the page sends) and withholds
 * their results.
 */

import { effect } from '@preact/signals';
import type { Controller } from '../src/session/index.js';
import type { ChromeRuntimePort } from '../src/transport/index.js';
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
  controller: Pick<Controller, 'servers' | 'call' | 'ready'>;
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

/** The page's call ran while its site lost access: its result, if any, is not the page's to see. */
export class AccessRevokedError extends Error {
  readonly kind = 'revoked';
  constructor(origin: string, toolName: string) {
    super(
      `${origin}'s access to Toolgate was revoked while ${toolName} was running: the call was cancelled and its result withheld.`,
    );
    this.name = 'AccessRevokedError';
  }
}

/** One call the page has running, under an id this gateway made (the page's id may repeat). */
interface RunningPageCall {
  pageRequestId: string;
  serverId: string;
  /** The tool's name, or `resources/read` / `prompts/get`. */
  toolName: string;
  /** Whether the site's grant still covers it (checked again when access changes). */
  allowed: () => boolean;
  abort: AbortController;
  /** Set when the site's access ended while the call ran: whatever it returns is withheld. */
  revoked: boolean;
}

export interface PageGateway {
  /**
   * Ends this page's session (its site was turned off): running calls are cancelled as revoked,
   * their replies are sent, later requests are refused, then the port is closed.
   */
  close(reason: string): void;
}

export function servePage({
  port,
  origin,
  pageTitle,
  controller,
  siteAccess,
}: PageGatewayOptions): PageGateway {
  // Keyed by ids made here, never by the page's request id: a page that reuses an id still has
  // every one of its calls on this list, so a revocation or a cancel reaches all of them.
  const calls = new Map<string, RunningPageCall>();
  const replies = new Set<Promise<unknown>>();
  // Aborted when the session ends (close, or the page went away): stops waiting for consent.
  const ending = new AbortController();
  let disconnected = false;
  const send = (message: BridgeReply | AccessEvent) => {
    if (!disconnected) port.postMessage(message);
  };
  const reply = (id: string, work: () => Promise<unknown>) => {
    const sent = work().then(
      (value) => send({ id, ok: true, value }),
      (error: unknown) => send({ id, ok: false, error: toWireError(error) }),
    );
    replies.add(sent);
    void sent.finally(() => replies.delete(sent));
    return sent;
  };
  const noAccess = () =>
    new SiteAccessError(`${origin} has no access to Toolgate yet: call requestAccess() first.`);
  const revoke = (call: RunningPageCall) => {
    call.revoked = true;
    call.abort.abort(new DOMException(`Access for ${origin} was revoked`, 'AbortError'));
  };

  const runCall = async (request: Extract<PageRequest, { method: 'callTool' }>) => {
    if (!siteAccess.grantOf(origin)) throw noAccess();
    if (!allowsTool(request)())
      throw new SiteAccessError(
        `${origin} may not use ${request.toolName} on ${request.serverId}: the person did not grant it. Ask again with requestAccess().`,
      );
    return track(request.id, request.serverId, request.toolName, allowsTool(request), async (signal) => {
      const outcome = await controller.call({
        serverId: request.serverId,
        toolName: request.toolName,
        arguments: request.arguments,
        caller: { kind: 'site', label: origin },
        signal,
      });
      // The site gets the tool's result, nothing of the gate's internals or the audit log.
      return outcome.result;
    });
  };
  // Another site's tab tools ("This page" of another origin) are never a site's, whatever a grant says.
  const allowsTool = (request: { serverId: string; toolName: string }) => () =>
    (!request.serverId.startsWith('webmcp:') || request.serverId === `webmcp:${origin}`) &&
    siteAccess.allows(origin, request.serverId, request.toolName);
  // Reads and prompt gets reach the servers whose tools the person granted the site, and the gate
  // asks the person each time (a site's reads are never allowed by default), as their calls are.
  const reachesServer = (serverId: string) => () =>
    siteAccess.grantOf(origin)?.tools.some((tool) => tool.serverId === serverId) ?? false;

  /** Runs one piece of the page's work as a call it can cancel, which a revocation withholds. */
  const track = async <T>(
    pageRequestId: string,
    serverId: string,
    toolName: string,
    allowed: () => boolean,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> => {
    const key = crypto.randomUUID();
    const call: RunningPageCall = {
      pageRequestId,
      serverId,
      toolName,
      allowed,
      abort: new AbortController(),
      revoked: false,
    };
    calls.set(key, call);
    const withheld = () => call.revoked || !allowed();
    try {
      const value = await work(call.abort.signal);
      // A server that finished despite the cancel: the site lost access, so the result is not its.
      if (withheld()) throw new AccessRevokedError(origin, toolName);
      return value;
    } catch (error) {
      if (withheld()) throw new AccessRevokedError(origin, toolName);
      throw error;
    } finally {
      calls.delete(key);
    }
  };

  const runAccess = async (request: Extract<PageRequest, { method: 'readResource' | 'getPrompt' }>) => {
    if (!siteAccess.grantOf(origin)) throw noAccess();
    const allowed = reachesServer(request.serverId);
    if (!allowed())
      throw new SiteAccessError(
        `${origin} may not use ${request.serverId}: the person granted none of its tools. Ask again with requestAccess().`,
      );
    const caller = { kind: 'site' as const, label: origin };
    const method = request.method === 'readResource' ? 'resources/read' : 'prompts/get';
    return track(request.id, request.serverId, method, allowed, async (signal) => {
      const { gate } = await controller.ready;
      const access =
        request.method === 'readResource'
          ? await gate.read({ serverId: request.serverId, uri: request.uri, caller, signal })
          : await gate.getPrompt({
              serverId: request.serverId,
              name: request.name,
              arguments: request.arguments,
              caller,
              signal,
            });
      // What the server returned, checked by the gate; nothing of the gate's record.
      return access.result;
    });
  };

  const handle = (request: PageRequest) => {
    if (ending.signal.aborted) {
      const reason = String(ending.signal.reason);
      return reply(request.id, async () => {
        throw new SiteAccessError(reason);
      });
    }
    switch (request.method) {
      case 'requestAccess':
        return reply(request.id, async () => {
          const grant = await siteAccess.request(origin, pageTitle, ending.signal);
          return toolsFor(grant, controller);
        });
      case 'listTools':
        return reply(request.id, async () => {
          const grant = siteAccess.grantOf(origin);
          if (!grant) throw noAccess();
          return toolsFor(grant, controller);
        });
      case 'cancel':
        // Every running call the page made under that id: a repeated id cancels them all.
        for (const call of calls.values())
          if (call.pageRequestId === request.callId)
            call.abort.abort(new DOMException('Cancelled by the page', 'AbortError'));
        return reply(request.id, async () => null);
      case 'callTool':
        return reply(request.id, () => runCall(request));
      case 'readResource':
      case 'getPrompt':
        return reply(request.id, () => runAccess(request));
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
    // Revoked or narrowed: what is running without a grant stops now, and its result is withheld.
    for (const call of calls.values()) if (!call.allowed()) revoke(call);
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

  const stop = (why: string) => {
    if (disconnected) return;
    disconnected = true;
    if (!ending.signal.aborted) ending.abort(why);
    for (const call of calls.values()) call.abort.abort(new DOMException(why, 'AbortError'));
    stopAccess();
    stopTools();
    port.onMessage.removeListener(onMessage);
  };
  port.onMessage.addListener(onMessage);
  port.onDisconnect.addListener(() => stop('The page went away'));

  return {
    close(reason) {
      if (ending.signal.aborted) return;
      ending.abort(reason);
      for (const call of calls.values()) revoke(call);
      // The page hears why each call ended before the port goes.
      void Promise.allSettled([...replies]).then(() => {
        stop(reason);
        port.disconnect();
      });
    },
  };
}
