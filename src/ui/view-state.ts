/**
 * What the panel remembers while the person moves between tabs: the Tools tab's search, the selected
 * tool, what was typed into each tool's form, and the last call made from each form (followed to its
 * result, which is shown where the call was made). Views are unmounted when their tab closes; this
 * outlives them, for as long as the panel lives.
 */

import { type Signal, signal } from '@preact/signals';
import type { GateResult } from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import type { PanelController, ReplayCall } from '../session/index.js';

/** A calls file loaded in Activity, with what became of each call run from it. */
export interface LoadedCalls {
  name: string;
  calls: readonly ReplayCall[];
  /** Per call, in the file's order: '' until it is run. */
  status: readonly string[];
}

/** A call made from a tool's form, as its form shows it. */
export interface FormCall {
  /** The gate's id for it, once known (a mirrored controller may never say: then matched by tool). */
  invocationId?: string;
  serverId: string;
  toolName: string;
  startedAt: number;
  finishedAt?: number;
  outcome?: { ok: true; result: GateResult } | { ok: false; error: string };
}

export interface PanelViewState {
  toolQuery: Signal<string>;
  toolScrollTop: Signal<number>;
  /** The selected tool's row key (server id / tool name). */
  selectedTool: Signal<string | undefined>;
  /** Set when the person picked a tool: its detail takes focus once shown, then clears this. */
  focusToolDetail: Signal<boolean>;
  /** Set by the "/" shortcut: the Tools tab's search takes focus once shown, then clears this. */
  focusToolSearch: Signal<boolean>;
  /** Arguments typed into each tool's form, by row key. */
  drafts: Map<string, JsonObject>;
  /** Values a form run again must have filled (they were redacted where it came from), by row key. */
  toFill: Map<string, readonly string[]>;
  /** The calls file loaded in Activity, kept while the person fills a form from it. */
  loadedCalls: Signal<LoadedCalls | undefined>;
  /** The latest call from each tool's form, by row key. */
  formCalls: Signal<Readonly<Record<string, FormCall>>>;
}

export function createPanelViewState(): PanelViewState {
  return {
    toolQuery: signal(''),
    toolScrollTop: signal(0),
    selectedTool: signal(undefined),
    focusToolDetail: signal(false),
    focusToolSearch: signal(false),
    drafts: new Map(),
    toFill: new Map(),
    loadedCalls: signal(undefined),
    formCalls: signal({}),
  };
}

/** Calls a tool from its form and follows the call to its outcome in `state.formCalls[key]`. */
export function callFromForm(
  state: PanelViewState,
  controller: PanelController,
  key: string,
  serverId: string,
  toolName: string,
  args: JsonObject,
): void {
  const startedAt = Date.now();
  const set = (change: Partial<FormCall>) => {
    const current = state.formCalls.value[key];
    // A newer call from the same form replaced this one: its outcome is no longer the form's to show.
    if (current?.startedAt !== startedAt) return;
    state.formCalls.value = { ...state.formCalls.value, [key]: { ...current, ...change } };
  };
  state.formCalls.value = { ...state.formCalls.value, [key]: { serverId, toolName, startedAt } };
  controller
    .call({
      serverId,
      toolName,
      arguments: args,
      // The person's click on the form's Call button: the gate takes it as their approval.
      startedFrom: 'form',
      onRequested: (invocationId) => set({ invocationId }),
    })
    .then(
      (result) => set({ finishedAt: Date.now(), outcome: { ok: true, result } }),
      (error: unknown) =>
        set({
          finishedAt: Date.now(),
          outcome: { ok: false, error: error instanceof Error ? error.message : String(error) },
        }),
    );
}

export type FormCallPhase =
  | { phase: 'checking' }
  | { phase: 'approval' }
  | {
      phase: 'running';
      sentAt: number;
      progress?: { progress: number; total?: number | undefined; message?: string | undefined };
    }
  | { phase: 'done' };

/** Where a form's call is now, read from the controller's queues. */
export function phaseOf(call: FormCall, controller: PanelController): FormCallPhase {
  if (call.outcome) return { phase: 'done' };
  const person = (caller: { kind: string }) => caller.kind === 'person';
  const approval = controller.approvals.value.find((item) =>
    call.invocationId
      ? item.request.invocationId === call.invocationId
      : item.request.serverId === call.serverId &&
        item.request.pinned.tool.name === call.toolName &&
        person(item.request.caller),
  );
  if (approval) return { phase: 'approval' };
  const running = controller.running.value.find((item) =>
    call.invocationId
      ? item.invocationId === call.invocationId
      : item.serverId === call.serverId && item.toolName === call.toolName && person(item.caller),
  );
  if (running?.sentAt !== undefined)
    return {
      phase: 'running',
      sentAt: running.sentAt,
      ...(running.progress ? { progress: running.progress } : {}),
    };
  return { phase: 'checking' };
}
