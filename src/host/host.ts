/**
 * The host-app API: what a web app needs to let a model use MCP tools with a person in the loop.
 * Add and remove servers, list the tools to offer the model, run the model's tool calls through the
 * gate (approval happens in the widget), get outcomes shaped for the model by the adapters, and
 * follow calls as they start, wait, run and end. It is a thin face over the widget's controller, so
 * a host that mounts <toolgate-panel> and one that drives Toolgate from code share one state.
 */

import { isOfferedToModel } from '../apps/index.js';
import type { OtlpExport, OtlpExportOptions } from '../audit/index.js';
import {
  type CallBatch,
  type Caller,
  DeniedError,
  type GateEvent,
  type TraceContext,
} from '../gate/index.js';
import type { JsonObject } from '../protocol/index.js';
import {
  type Controller,
  type ControllerOptions,
  createController,
  type ServerConfig,
  type ServerState,
  startAuditExport,
} from '../session/index.js';
import type { ServerTool } from './adapters/declarations.js';
import type { ToolOutcome } from './adapters/outcome.js';
import {
  createHostOfferings,
  type HostAccessOptions,
  type HostPrompt,
  type HostResource,
  type HostResourceResult,
} from './offerings.js';
import { createHostSkills, type HostSkills } from './skills.js';

export interface ToolgateHostOptions extends ControllerOptions {
  /** Share the state of a mounted panel (`panel.controller`) instead of creating a new one. */
  controller?: Controller;
  /** Who the calls come from, as the approval dialog and the audit log name it. Default: the model. */
  caller?: Caller;
  /**
   * W3C trace context on every call (`_meta.traceparent`): 'start' begins a new sampled trace per
   * call unless `run` is given the host's own. Default: only calls given a `trace` carry one.
   */
  traceContext?: 'start';
  /**
   * Stream the audit log to an OpenTelemetry collector (OTLP/HTTP, JSON). The exporter is loaded
   * only when this is set; it needs the IndexedDB audit log (the default `audit`).
   */
  otlp?: OtlpExportOptions;
}

/** Per-call options of `run`. */
export interface HostRunOptions {
  signal?: AbortSignal;
  /**
   * Who the call comes from, when not the model acting for the person: a model's calls that answer
   * an MCP App's `ui/message` (or follow its `ui/update-model-context`) are the app's, so pass the
   * event's `caller`; the gate then asks about them as the app's calls, never under the host's
   * trusted read-only default or remembered approvals. Default: the host's `caller`, or the model.
   */
  caller?: Caller;
  /** The host's trace context for this call (its current span), sent in `_meta` and recorded. */
  trace?: TraceContext;
}

/** A tool call to run: which server, which tool, with what. Adapters' `from*` functions make these. */
export interface HostToolCall {
  serverId: string;
  toolName: string;
  arguments: JsonObject;
}

/** What happens to a call, in order. `denied` and `failed` end it without a result. */
export type HostEvent =
  | { type: 'started'; invocationId: string; serverId: string; toolName: string; caller: Caller }
  | { type: 'awaiting-approval'; invocationId: string }
  | { type: 'approved'; invocationId: string; arguments: Record<string, unknown> }
  | { type: 'progress'; invocationId: string; progress: number; total?: number; message?: string }
  | { type: 'finished'; invocationId: string; isError: boolean }
  | { type: 'denied'; invocationId: string; reason: string }
  | { type: 'failed'; invocationId: string; error: Error }
  /**
   * The server runs the call as a task: its id and each change of status. `run()` still resolves
   * with the final result; this is for hosts that want to show the task while it runs.
   */
  | { type: 'task'; invocationId: string; taskId: string; status: string; statusMessage?: string }
  /** The audit log could not record part of a call (its result, or why it was refused). */
  | { type: 'audit-failed'; invocationId: string; message: string };

export interface ToolgateHost {
  readonly controller: Controller;
  addServer(config: ServerConfig): Promise<ServerState>;
  removeServer(id: string): Promise<void>;
  /** Tools of the connected servers that the person has not switched off, to offer a model. */
  tools(): ServerTool[];
  /** Calls `listener` whenever the set of offerable tools changes (servers, lists, switches). */
  onToolsChanged(listener: (tools: ServerTool[]) => void): () => void;
  /**
   * Runs one call through the gate. Never throws: a denial, a timeout or a bad call comes back as
   * `{ error }`, which the adapters phrase for the model like any result.
   */
  run(call: HostToolCall, options?: HostRunOptions): Promise<ToolOutcome>;
  /**
   * Runs the calls a model proposed at once (one response's tool calls). The person is asked about
   * those that need it in one dialog, each call with its arguments and its own allow or deny; each
   * is still its own call through the gate and its own audit entry. Outcomes come back in order and,
   * like `run`'s, never throw.
   */
  runMany(calls: readonly HostToolCall[], options?: HostRunOptions): Promise<ToolOutcome[]>;
  on(listener: (event: HostEvent) => void): () => void;
  /**
   * The connected servers' prompts, to offer as slash commands. Getting one goes through the gate
   * as the host's `caller` (default: the app): asked unless remembered, and recorded.
   */
  prompts(): Promise<HostPrompt[]>;
  /**
   * The connected servers' resources (not MCP Apps' `ui://` views), to attach as context; each read
   * goes through the gate.
   */
  resources(): Promise<HostResource[]>;
  /** Reads any URI of a connected server through the gate (a filled template, a link in a result). */
  readResource(serverId: string, uri: string, options?: HostAccessOptions): Promise<HostResourceResult>;
  /** Skills (SEP-2640) the person approved, under server-qualified names, loaded and read verified. */
  readonly skills: HostSkills;
  /**
   * The audit log's OpenTelemetry export, once started (undefined without `otlp`). Rejects, saying
   * why, when it cannot start (no IndexedDB audit log, a collector URL that is not http(s)).
   */
  otlpExport(): Promise<OtlpExport | undefined>;
  close(): Promise<void>;
}

/** A model's calls reach Toolgate through the host app; the label tells the person who proposed it. */
const MODEL: Caller = { kind: 'host', label: 'the assistant' };
/** Prompts and resources are picked in the app (a slash command, an attachment): the app asks. */
const APP: Caller = { kind: 'host' };

export function createToolgateHost(options: ToolgateHostOptions = {}): ToolgateHost {
  const controller = options.controller ?? createController(options);
  const otlp = options.otlp ? startAuditExport(controller, options.otlp) : undefined;
  // The host reads failures through otlpExport(); meanwhile they are not "unhandled".
  otlp?.catch(() => undefined);
  const offerable = (): ServerTool[] =>
    controller.servers.value
      .filter((server) => server.state === 'connected')
      .flatMap((server) =>
        server.tools
          // A tool whose visibility lacks "model" is for its MCP App only: never offered to a model.
          .filter((tool) => !server.disabled.has(tool.name) && isOfferedToModel(tool))
          .map((tool) => ({ serverId: server.id, tool })),
      );

  const offered = createHostOfferings(controller, options.caller ?? APP);

  async function runOne(
    call: HostToolCall,
    runOptions: HostRunOptions,
    batch?: CallBatch,
  ): Promise<ToolOutcome> {
    const caller = runOptions.caller ?? options.caller ?? MODEL;
    const tool = controller.servers.value
      .find((server) => server.id === call.serverId)
      ?.tools.find((candidate) => candidate.name === call.toolName);
    if (tool && !isOfferedToModel(tool))
      return {
        error: new DeniedError(
          call.serverId,
          call.toolName,
          'policy',
          'it is for its MCP App only (its visibility does not include "model"); nothing was sent',
        ),
      };
    const trace = runOptions.trace ?? options.traceContext;
    try {
      return await controller.call({
        serverId: call.serverId,
        toolName: call.toolName,
        arguments: call.arguments,
        caller,
        ...(runOptions.signal ? { signal: runOptions.signal } : {}),
        ...(trace ? { trace } : {}),
        ...(batch ? { batch } : {}),
      });
    } catch (error) {
      return { error };
    }
  }

  return {
    controller,
    prompts: offered.prompts,
    resources: offered.resources,
    readResource: offered.readResource,
    addServer: (config) => controller.addServer(config),
    removeServer: (id) => controller.removeServer(id),
    tools: offerable,
    onToolsChanged(listener) {
      let last = '';
      // Signals call back on every server change; only real changes in the offer reach the host.
      return controller.servers.subscribe(() => {
        const tools = offerable();
        const key = tools.map(({ serverId, tool }) => `${serverId}\u0000${tool.name}`).join('\u0001');
        if (key === last) return;
        last = key;
        listener(tools);
      });
    },
    run: (call, runOptions = {}) => runOne(call, runOptions),
    runMany(calls, runOptions = {}) {
      if (calls.length <= 1) return Promise.all(calls.map((call) => runOne(call, runOptions)));
      const id = crypto.randomUUID();
      return Promise.all(
        calls.map((call, index) => runOne(call, runOptions, { id, size: calls.length, index })),
      );
    },
    on(listener) {
      return controller.onEvent((event) => {
        const translated = translate(event);
        if (translated) listener(translated);
      });
    },
    skills: createHostSkills(controller, options.caller ?? MODEL),
    otlpExport: () => otlp ?? Promise.resolve(undefined),
    async close() {
      // Stop exporting before the log closes; the cursor keeps what the collector acknowledged.
      (await otlp?.catch(() => undefined))?.stop();
      await controller.close();
    },
  };
}

function translate(event: GateEvent): HostEvent | undefined {
  switch (event.type) {
    case 'requested': {
      const { serverId, toolName, caller } = event.request;
      return { type: 'started', invocationId: event.invocationId, serverId, toolName, caller };
    }
    case 'awaiting-approval':
      return event;
    case 'sent':
      return { type: 'approved', invocationId: event.invocationId, arguments: event.arguments };
    case 'progress':
      return event;
    case 'finished':
      return {
        type: 'finished',
        invocationId: event.invocationId,
        isError: event.result.result.isError === true,
      };
    case 'failed':
      return event.error instanceof DeniedError
        ? { type: 'denied', invocationId: event.invocationId, reason: event.error.message }
        : { type: 'failed', invocationId: event.invocationId, error: event.error };
    case 'audit-failed':
      return { type: 'audit-failed', invocationId: event.invocationId, message: event.message };
    case 'accessed':
      return { type: 'finished', invocationId: event.invocationId, isError: false };
    case 'completion':
      return undefined;
    case 'task':
      // Polls are not news for a host: only the task and its status changes are.
      if (event.nextPollAt !== undefined) return undefined;
      return {
        type: 'task',
        invocationId: event.invocationId,
        taskId: event.taskId,
        status: event.status,
        ...(event.statusMessage !== undefined ? { statusMessage: event.statusMessage } : {}),
      };
  }
}
