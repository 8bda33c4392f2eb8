/**
 * The worker's side of MCP Apps shown in an extension page (the side panel). The page renders the
 * app; the worker owns the connections and the gate, so the page reads the app's UI resource here
 * and hands the app's tools/call here. The caller is set here, from the app's `ui://` resource URI,
 * and the call goes through the same checks as in the widget (visibility "app", own server only,
 * then the gate: validation, policy, the approval dialog naming the app, the audit log).
 */

import { appCaller, isUiResourceUri, refuseUnlessCallableByApp } from '../../src/apps/index.js';
import { isJsonObject, type JsonObject } from '../../src/protocol/index.js';
import type { Controller } from '../../src/session/index.js';

type Handler = (...params: never[]) => unknown;

export interface AppCommands {
  /** The port's commands: readResource, callForApp, cancelAppCall. */
  commands: Record<string, Handler>;
  /** The page went away: its apps' calls still running are cancelled (their answers have nowhere to go). */
  close(): void;
}

/** Commands for one extension page's port. */
export function appCommands(controller: Controller): AppCommands {
  /** The page's app calls still running, by the id the page chose, so the app can cancel them. */
  const running = new Map<string, AbortController>();
  return {
    commands: {
      readResource: (serverId: string, uri: string) => {
        if (!controller.readResource)
          throw new Error('This Toolgate worker cannot read resources from servers.');
        return controller.readResource(serverId, uri);
      },
      callForApp: async (
        callId: string,
        serverId: string,
        resourceUri: string,
        toolName: string,
        args: JsonObject,
      ) => {
        if (typeof resourceUri !== 'string' || !isUiResourceUri(resourceUri))
          throw new Error(
            `An app call must name the app's ui:// resource; ${String(resourceUri)} is not one. Nothing was sent.`,
          );
        if (typeof toolName !== 'string' || !isJsonObject(args))
          throw new Error(
            `The app ${resourceUri} sent a call without a tool name or with arguments that are not an object. Nothing was sent.`,
          );
        if (typeof callId !== 'string' || running.has(callId))
          throw new Error(
            `The app ${resourceUri} reused a call id; nothing was sent. Close and reopen the app.`,
          );
        const app = { serverId, resourceUri };
        const abort = new AbortController();
        running.set(callId, abort);
        try {
          // Checked again here, not only in the page: the worker is where the gate lives.
          await refuseUnlessCallableByApp(controller, app, toolName, args);
          return await controller.call({
            serverId,
            toolName,
            arguments: args,
            caller: appCaller(app),
            signal: abort.signal,
          });
        } finally {
          running.delete(callId);
        }
      },
      cancelAppCall: (callId: string) => {
        running.get(callId)?.abort(new DOMException('The app cancelled the call', 'AbortError'));
      },
    },
    close() {
      for (const call of running.values())
        call.abort(new DOMException('The extension page showing the app closed', 'AbortError'));
      running.clear();
    },
  };
}
