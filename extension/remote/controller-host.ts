/**
 * The service worker's side of an extension page's port: it mirrors the controller's state (and the
 * sites' access) to the page as plain data, and runs the page's commands. One controller, many
 * views: the side panel, the popup and in-page prompts all show the same queue.
 */

import type { ReadonlySignal } from '@preact/signals';
import { effect } from '@preact/signals';
import type { OtlpExportStatus } from '../../src/audit/index.js';
import type { ApprovalAnswer, RuleInput, TrustLevel } from '../../src/gate/index.js';
import type { ElicitResult, JsonObject } from '../../src/protocol/index.js';
import type { Controller, RememberedItem, ServerConfig, ServerState } from '../../src/session/index.js';
import type { ChromeRuntimePort } from '../../src/transport/index.js';
import { appCommands } from '../apps/worker-app-commands.js';
import type { AuthOriginWatch } from '../sign-in/auth-origins.js';
import type { SignInPrompts } from '../sign-in/prompts.js';
import type { ConsentAnswer, SiteAccess } from '../site-access.js';
import { sendDiagnostics } from './diagnostics-mirror.js';
import {
  type PageCommand,
  toWireError,
  WIRE_STATE_KEYS,
  type WireAccess,
  type WireApproval,
  type WireElicitation,
  type WireRunningCall,
  type WireServer,
  type WireStateKey,
  type WorkerToPage,
} from './wire.js';
import { offeringCommands } from './worker-offerings.js';

export function toWireServer(server: ServerState): WireServer {
  const { config, disabled, ...rest } = server;
  return {
    ...rest,
    disabled: [...disabled],
    config: {
      ...(config.id ? { id: config.id } : {}),
      ...(config.url ? { url: config.url } : {}),
      ...(config.label ? { label: config.label } : {}),
      ...(config.address ? { address: config.address } : {}),
      ...(config.headers && Object.keys(config.headers).length > 0 ? { hasHeaders: true } : {}),
    },
  };
}

/** Reads one key of the worker's state as plain data. */
export function readWireState(
  controller: Controller,
  siteAccess: SiteAccess,
  key: WireStateKey,
  signIns?: SignInPrompts,
  authOrigins?: AuthOriginWatch,
  auditExport?: AuditExportHandle,
): unknown {
  switch (key) {
    case 'servers':
      return controller.servers.value.map(toWireServer);
    case 'approvals':
      return controller.approvals.value.map(({ request, receivedAt }): WireApproval => {
        const { validate: _validate, signal: _signal, ...data } = request;
        return { request: data, receivedAt };
      });
    case 'accesses':
      return (controller.accesses?.value ?? []).map(({ request }): WireAccess => {
        const { signal: _signal, ...data } = request;
        return { request: data };
      });
    case 'running':
      return controller.running.value.map(({ cancel: _cancel, ...data }): WireRunningCall => data);
    case 'finished':
      return controller.finished.value;
    case 'elicitations':
      return controller.elicitations.value.map(({ answer: _answer, ...data }): WireElicitation => data);
    case 'consents':
      return siteAccess.consents.value;
    case 'sites':
      return siteAccess.sites.value;
    case 'signIns':
      return signIns?.pending.value ?? [];
    case 'refusedAuthOrigins':
      return authOrigins?.refused.value ?? [];
    case 'rememberedVersion':
      return controller.rememberedVersion.value;
    case 'auditExport':
      return auditExport?.status.value ?? null;
  }
}

type Handler = (...params: never[]) => unknown;

/**
 * Whether the panel's call command says the person pressed a tool form's Call button, which the
 * gate takes as their approval (src/gate/own-call.ts). Only this exact mark counts.
 */
function startedFromForm(options: unknown): boolean {
  return (
    typeof options === 'object' &&
    options !== null &&
    (options as { startedFrom?: unknown }).startedFrom === 'form'
  );
}

function commandsFor(
  controller: Controller,
  siteAccess: SiteAccess,
  personLabel: string,
  signIns: SignInPrompts | undefined,
  auditExport: AuditExportHandle | undefined,
): Record<string, Handler> {
  const approval = (invocationId: string) => {
    const pending = controller.approvals.value.find((item) => item.request.invocationId === invocationId);
    if (!pending)
      throw new Error('That approval is no longer waiting (it was answered, cancelled or timed out).');
    return pending;
  };
  return {
    addServer: async (config: ServerConfig) => toWireServer(await controller.addServer(config)),
    removeServer: (id: string) => controller.removeServer(id),
    retry: async (id: string) => toWireServer(await controller.retry(id)),
    setTrust: (id: string, trust: TrustLevel) => controller.setTrust(id, trust),
    setToolEnabled: (id: string, toolName: string, enabled: boolean) =>
      controller.setToolEnabled(id, toolName, enabled),
    // Only an extension page of Toolgate's own reaches this port (background.ts checks the sender):
    // a site's calls come through the page gateway, as the site, and can never carry the form's mark.
    call: (serverId: string, toolName: string, args: JsonObject, options?: unknown) =>
      controller.call({
        serverId,
        toolName,
        arguments: args,
        caller: { kind: 'person', label: personLabel },
        ...(startedFromForm(options) ? { startedFrom: 'form' as const } : {}),
      }),
    cancel: (invocationId: string) => controller.cancel(invocationId),
    answerApproval: (invocationId: string, answer: ApprovalAnswer) => {
      approval(invocationId).answer(answer);
    },
    validate: (invocationId: string, args: JsonObject) => approval(invocationId).request.validate(args),
    answerAccess: (invocationId: string, answer: ApprovalAnswer) => {
      const pending = controller.accesses?.value.find((item) => item.request.invocationId === invocationId);
      if (!pending)
        throw new Error('That read is no longer waiting (it was answered, cancelled or timed out).');
      pending.answer(answer);
    },
    answerElicitation: (id: string, result: ElicitResult) => {
      const pending = controller.elicitations.value.find((item) => item.id === id);
      if (!pending) throw new Error('That request for input is no longer waiting.');
      pending.answer(result);
    },
    answerConsent: (id: string, answer: ConsentAnswer) => siteAccess.answer(id, answer),
    revokeSite: (origin: string) => siteAccess.revoke(origin),
    setSiteAgent: (origin: string, on: boolean) => siteAccess.setAgent(origin, on === true),
    listRemembered: () => controller.listRemembered(),
    forgetRemembered: (item: Pick<RememberedItem, 'type' | 'id'>) => controller.forgetRemembered(item),
    listRules: () => controller.rules.list(),
    saveRule: (input: RuleInput) => controller.rules.save(input),
    deleteRule: (id: string) => controller.rules.remove(id),
    moveRule: (id: string, offset: number) => controller.rules.move(id, offset),
    importRules: (inputs: unknown[]) => controller.rules.importRules(Array.isArray(inputs) ? inputs : []),
    // The person's answer to "Sign in to <server>?": only a yes lets the worker open the sign-in window.
    answerSignIn: (id: string, accept: boolean) => {
      if (!signIns) throw new Error('This Toolgate worker does not sign in to servers.');
      signIns.answer(id, accept === true);
    },
    resumeAuditExport: () => {
      if (!auditExport?.status.value)
        throw new Error('No audit export runs in this Toolgate worker (no auditCollector policy).');
      return auditExport.resume();
    },
    ping: (serverId: string) => {
      if (!controller.ping) throw new Error('This Toolgate worker does not time round trips.');
      return controller.ping(serverId);
    },
    setLogLevel: (serverId: string, level: string) => {
      if (!controller.setLogLevel) throw new Error('This Toolgate worker does not ask servers for logs.');
      return controller.setLogLevel(serverId, level);
    },
    signOut: (serverId: string) => {
      if (!controller.signOut) throw new Error('This Toolgate worker does not sign in to servers.');
      return controller.signOut(serverId);
    },
  };
}

export interface PanelHostOptions {
  port: ChromeRuntimePort;
  controller: Controller;
  siteAccess: SiteAccess;
  personLabel?: string;
  /** The sign-ins waiting for the person (absent: the worker signs in to nothing). */
  signIns?: SignInPrompts;
  /** Authorization servers that refused CORS while signing in (absent: none watched). */
  authOrigins?: AuthOriginWatch;
  /** The audit log's export, when the policy starts one (absent: none is shown). */
  auditExport?: AuditExportHandle | undefined;
}

/** The worker's audit export as the panel needs it: its status, and resuming it. */
export interface AuditExportHandle {
  status: ReadonlySignal<OtlpExportStatus | null>;
  resume(): Promise<void>;
}

/** Serves one extension page until its port disconnects. */
export function servePanel({
  port,
  controller,
  siteAccess,
  personLabel = 'you',
  signIns,
  authOrigins,
  auditExport,
}: PanelHostOptions): void {
  let open = true;
  const send = (message: WorkerToPage) => {
    if (open) port.postMessage(message);
  };
  // One effect per key: a progress tick resends the running calls, not the tool lists.
  const watchers: (() => void)[] = WIRE_STATE_KEYS.map((key) =>
    effect(() =>
      send({
        type: 'state',
        key,
        value: readWireState(controller, siteAccess, key, signIns, authOrigins, auditExport),
      }),
    ),
  );
  // The Inspect view's records, as what is new since the last message (diagnostics-mirror.ts).
  if (controller.traffic) watchers.push(sendDiagnostics('traffic', controller.traffic, send));
  if (controller.serverLog) watchers.push(sendDiagnostics('serverLog', controller.serverLog, send));
  const apps = appCommands(controller);
  const offerings = offeringCommands(controller.offerings, send);
  const commands = {
    ...commandsFor(controller, siteAccess, personLabel, signIns, auditExport),
    ...apps.commands,
    ...offerings.commands,
  };

  const onMessage = (message: unknown) => {
    const command = message as PageCommand;
    if (command?.type !== 'command' || typeof command.id !== 'number') return;
    const handler = commands[command.method];
    const params = Array.isArray(command.params) ? command.params : [];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`The Toolgate worker has no command "${command.method}".`);
        return (handler as (...args: unknown[]) => unknown)(...params);
      })
      .then(
        (value) => send({ type: 'reply', id: command.id, ok: true, value: value ?? null }),
        (error: unknown) => send({ type: 'reply', id: command.id, ok: false, error: toWireError(error) }),
      );
  };
  port.onMessage.addListener(onMessage);
  port.onDisconnect.addListener(() => {
    open = false;
    for (const stop of watchers) stop();
    apps.close();
    offerings.close();
    port.onMessage.removeListener(onMessage);
  });
}
