/**
 * The MCP Apps open in a session, beside the session and outside any view: an app opens as soon as
 * a call to a tool that links a `ui://` resource is sent (after its approval), follows that call
 * (its arguments, its progress, then its result or why it ended without one) and stays open, across
 * tab switches, until the person closes it, the app asks to close, its server leaves the panel or
 * the panel closes. Views render what is here (one place, kept mounted) and register how to tear
 * each app down, so every way an app closes goes through `close()` and its `ui/resource-teardown`.
 *
 * Loaded after the panel's first paint; the app host itself (sandbox, protocol, CSP) only when an
 * app is shown.
 */

import { effect, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { Caller } from '../gate/index.js';
import type { CallToolResult, JsonObject, Tool } from '../protocol/index.js';
import type { FinishedCall, PanelController, RunningCall } from '../session/index.js';
import { uiResourceUriOf } from './tool-ui.js';

/** Where the call that opened an app stands, as the app is told. */
export type AppCallState =
  | {
      phase: 'running';
      /** As sent (after any edit in the approval dialog). */
      arguments?: JsonObject;
      progress?: { progress: number; total?: number | undefined; message?: string | undefined };
    }
  | { phase: 'done'; arguments: JsonObject; result: CallToolResult; finishedAt: number }
  | { phase: 'cancelled'; arguments?: JsonObject; reason: string };

/** One open app: which resource of which server, for which call. */
export interface OpenApp {
  /** Unique for this page's lifetime (one call may be shown again after its app was closed). */
  readonly id: string;
  readonly serverId: string;
  readonly resourceUri: string;
  /** The tool whose call opened it, as the server listed it then. */
  readonly tool: Tool;
  readonly invocationId: string;
  /** Who made that call. */
  readonly caller: Caller | undefined;
  /** When the app was opened (epoch ms). */
  readonly openedAt: number;
  readonly call: ReadonlySignal<AppCallState>;
}

/** Closes one shown app: asks it to finish (`ui/resource-teardown`), then ends its channel. */
type AppTeardown = (reason: string) => Promise<void>;

/** A view's hold on the store; the first live one renders the apps (one frame per app). */
export interface AppsLease {
  /** True while this lease is the one whose view renders the apps. */
  readonly renders: ReadonlySignal<boolean>;
  /** Lets go; when the last lease goes, every app is closed (the panel closed). */
  release(): void;
}

export interface OpenApps {
  /** Open apps, oldest first. */
  readonly apps: ReadonlySignal<readonly OpenApp[]>;
  /** The open app of a call, if any. */
  appOf(invocationId: string): OpenApp | undefined;
  /**
   * The app of a running (sent) or successfully finished call, opened again if it was closed;
   * undefined when that call has no app to show.
   */
  show(invocationId: string): OpenApp | undefined;
  /** Where the view registers how to tear an app down; returns the unregister function. */
  onTeardown(id: string, teardown: AppTeardown): () => void;
  /** Tears an app down (through its view, when one shows it) and removes it. */
  close(id: string, reason: string): Promise<void>;
  /** A view that shows apps holds the store while it is mounted. */
  retain(): AppsLease;
}

/** More apps than this and the oldest is closed: each is a document, a frame and a channel. */
export const MAX_OPEN_APPS = 5;

const stores = new WeakMap<PanelController, OpenApps>();

/** The open apps of a session: one store per controller, however many views show it. */
export function openAppsOf(controller: PanelController): OpenApps {
  let store = stores.get(controller);
  if (!store) {
    store = createOpenApps(controller, () => stores.delete(controller));
    stores.set(controller, store);
  }
  return store;
}

interface Entry extends OpenApp {
  readonly call: Signal<AppCallState>;
}

function createOpenApps(controller: PanelController, forget: () => void): OpenApps {
  const apps = signal<readonly Entry[]>([]);
  const teardowns = new Map<string, AppTeardown>();
  const closing = new Map<string, Promise<void>>();
  /** Calls already judged (opened, or no app to open): an app the person closed stays closed. */
  const judged = new Set<string>();
  // Calls that ended before this store existed have had their apps shown (or not) already.
  for (const call of controller.finished.peek()) judged.add(call.invocationId);
  const leases: { renders: Signal<boolean> }[] = [];
  let sequence = 0;

  const toolOf = (serverId: string, toolName: string): Tool | undefined =>
    controller.servers
      .peek()
      .find((server) => server.id === serverId)
      ?.tools.find((tool) => tool.name === toolName);

  /** The app a call's tool links, unless the call is an app's own (it answers that app instead). */
  const appToolOf = (call: RunningCall | FinishedCall) => {
    if (call.caller?.kind === 'mcp-app') return undefined;
    const tool = toolOf(call.serverId, call.toolName);
    const resourceUri = tool ? uiResourceUriOf(tool) : undefined;
    return tool && resourceUri ? { tool, resourceUri } : undefined;
  };

  const open = (call: RunningCall | FinishedCall, state: AppCallState): Entry | undefined => {
    const linked = appToolOf(call);
    if (!linked) return undefined;
    const entry: Entry = {
      id: `app-${++sequence}`,
      serverId: call.serverId,
      resourceUri: linked.resourceUri,
      tool: linked.tool,
      invocationId: call.invocationId,
      caller: call.caller,
      openedAt: Date.now(),
      call: signal(state),
    };
    const current = apps.peek();
    const over = current.length + 1 - MAX_OPEN_APPS;
    for (const old of current.filter((app) => !closing.has(app.id)).slice(0, Math.max(0, over)))
      void close(old.id, `Toolgate keeps at most ${MAX_OPEN_APPS} apps open; this was the oldest`);
    apps.value = [...apps.peek(), entry];
    return entry;
  };

  const finishedState = (call: FinishedCall): AppCallState =>
    call.outcome.ok
      ? {
          phase: 'done',
          arguments: call.outcome.result.arguments,
          result: call.outcome.result.result,
          finishedAt: call.finishedAt,
        }
      : {
          phase: 'cancelled',
          ...(call.arguments ? { arguments: call.arguments } : {}),
          reason: call.outcome.error,
        };

  const entryOf = (invocationId: string) =>
    apps.peek().find((app) => app.invocationId === invocationId && !closing.has(app.id));

  async function close(id: string, reason: string): Promise<void> {
    const pending = closing.get(id);
    if (pending) return pending;
    const done = (async () => {
      try {
        await teardowns.get(id)?.(reason);
      } catch {
        // The app did not answer its teardown: it goes all the same.
      } finally {
        teardowns.delete(id);
        closing.delete(id);
        apps.value = apps.peek().filter((app) => app.id !== id);
      }
    })();
    closing.set(id, done);
    return done;
  }

  const stops = [
    // A call with an app starts: open the app once the call is sent (approved), then follow it.
    effect(() => {
      for (const call of controller.running.value) {
        if (call.sentAt === undefined) continue;
        const entry = entryOf(call.invocationId);
        if (entry) {
          const now = entry.call.peek();
          if (now.phase === 'running' && (now.progress !== call.progress || now.arguments !== call.arguments))
            entry.call.value = {
              phase: 'running',
              ...(call.arguments ? { arguments: call.arguments } : {}),
              ...(call.progress ? { progress: call.progress } : {}),
            };
          continue;
        }
        if (judged.has(call.invocationId)) continue;
        judged.add(call.invocationId);
        open(call, {
          phase: 'running',
          ...(call.arguments ? { arguments: call.arguments } : {}),
          ...(call.progress ? { progress: call.progress } : {}),
        });
      }
    }),
    // The call ends: its app gets the result, or is told it was cancelled (or failed, or timed out).
    effect(() => {
      const finished = controller.finished.value;
      for (const call of finished) {
        const entry = entryOf(call.invocationId);
        if (entry) {
          if (entry.call.peek().phase === 'running') entry.call.value = finishedState(call);
          continue;
        }
        if (judged.has(call.invocationId)) continue;
        judged.add(call.invocationId);
        // Sent and done before the store saw it running (a mirrored session sends states in
        // batches): its app opens with the result. A call that never left opens nothing.
        if (call.outcome.ok) open(call, finishedState(call));
      }
      // Forget what neither list holds any more, so the set stays as small as the lists.
      const live = new Set([
        ...finished.map((call) => call.invocationId),
        ...controller.running.peek().map((call) => call.invocationId),
      ]);
      for (const id of judged) if (!live.has(id)) judged.delete(id);
    }),
    // A server removed from the panel takes its apps with it (nothing is left to answer them).
    effect(() => {
      const present = new Set(controller.servers.value.map((server) => server.id));
      for (const app of apps.peek())
        if (!present.has(app.serverId)) void close(app.id, 'its server was removed from the panel');
    }),
  ];

  const store: OpenApps = {
    apps,
    appOf: (invocationId) => entryOf(invocationId),
    show(invocationId) {
      const shown = entryOf(invocationId);
      if (shown) return shown;
      const running = controller.running.peek().find((call) => call.invocationId === invocationId);
      if (running) {
        if (running.sentAt === undefined) return undefined;
        judged.add(invocationId);
        return open(running, {
          phase: 'running',
          ...(running.arguments ? { arguments: running.arguments } : {}),
          ...(running.progress ? { progress: running.progress } : {}),
        });
      }
      const finished = controller.finished.peek().find((call) => call.invocationId === invocationId);
      if (!finished?.outcome.ok) return undefined;
      judged.add(invocationId);
      return open(finished, finishedState(finished));
    },
    onTeardown(id, teardown) {
      teardowns.set(id, teardown);
      return () => {
        if (teardowns.get(id) === teardown) teardowns.delete(id);
      };
    },
    close,
    retain() {
      const lease = { renders: signal(leases.length === 0) };
      leases.push(lease);
      return {
        renders: lease.renders,
        release() {
          const at = leases.indexOf(lease);
          if (at < 0) return;
          leases.splice(at, 1);
          lease.renders.value = false;
          if (leases[0]) {
            leases[0].renders.value = true;
            return;
          }
          // The last view went: the panel closed, and its apps with it.
          for (const stop of stops) stop();
          for (const app of apps.peek()) void close(app.id, 'the Toolgate panel was closed');
          forget();
        },
      };
    },
  };
  return store;
}
