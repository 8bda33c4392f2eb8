/**
 * An app's `tools/call`, by the specification's rules and through the gate: only tools of the app's
 * own server, only tools whose visibility includes "app", and then the same pipeline as every other
 * call (validation, policy, the approval dialog naming the app, the audit log) with the caller
 * `{ kind: 'mcp-app', label: <resource URI>, server: <its server> }`. What the gate refuses, it records; what is refused
 * here, before the gate, is recorded here as a refusal in the same log.
 */

import type { CallToolResult, JsonObject } from '../protocol/index.js';
import {
  type AppIdentity,
  appCaller,
  type ControllerServices,
  type PanelController,
} from '../session/index.js';

/** Kept here too: callers of the app-call path import it from this module. */
export { appCaller };

import { isCallableByApp } from './tool-ui.js';

/** Runs one app-initiated call; throws an Error whose message the app (and the person) can read. */
export async function callToolForApp(
  controller: PanelController,
  app: AppIdentity,
  name: string,
  args: JsonObject,
  signal: AbortSignal,
): Promise<CallToolResult> {
  await refuseUnlessCallableByApp(controller, app, name, args);
  const servers = controller.servers.value;
  const tool = servers.find((server) => server.id === app.serverId)?.tools.find((t) => t.name === name);
  // A name only another server has is still asked of the app's own server: the gate refuses it
  // there ("no tool named ...") and records the refusal, so no app ever reaches another server.
  const owner = tool
    ? undefined
    : servers.find((s) => s.id !== app.serverId && s.tools.some((t) => t.name === name));
  try {
    const outcome = await controller.call({
      serverId: app.serverId,
      toolName: name,
      arguments: args,
      caller: appCaller(app),
      signal,
    });
    return outcome.result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      owner
        ? `Refused: ${name} is a tool of another server (${owner.label}); an app may call only tools of its own server (${app.serverId}). ${message}`
        : message,
    );
  }
}

/**
 * Throws, after putting the refusal on record, when the app's own server lists `name` without "app"
 * in its visibility. Also run where the gate lives when it is not in the app's page (the extension's
 * worker), so no page can skip it.
 */
export async function refuseUnlessCallableByApp(
  controller: PanelController,
  app: AppIdentity,
  name: string,
  args: JsonObject,
): Promise<void> {
  const tool = controller.servers.value
    .find((server) => server.id === app.serverId)
    ?.tools.find((candidate) => candidate.name === name);
  if (!tool || isCallableByApp(tool)) return;
  const reason = `${name} on ${app.serverId} is not available to apps (its visibility does not include "app"); nothing was sent.`;
  await recordRefusal(controller, app, name, args, reason);
  throw new Error(reason);
}

/** Puts a refusal made before the gate on record, when the panel's audit log is at hand. */
async function recordRefusal(
  controller: PanelController,
  app: AppIdentity,
  toolName: string,
  args: JsonObject,
  reason: string,
): Promise<void> {
  const services: Partial<ControllerServices> | undefined = await controller.ready.catch(() => undefined);
  // The sink the gate records in where this controller runs the gate (a worker's, a host's own
  // sink), else the page's handle on the log.
  await (services?.audit ?? services?.auditLog)
    ?.refusal({
      invocationId: crypto.randomUUID(),
      serverId: app.serverId,
      toolName,
      caller: appCaller(app),
      proposedArguments: structuredClone(args),
      outcome: 'denied',
      reason,
      timestamps: { requested: Date.now() },
    })
    .catch(() => undefined);
}
