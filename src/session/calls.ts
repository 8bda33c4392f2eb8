/**
 * The controller's calls: every call goes through the gate; while it runs it is in `running` (with
 * its progress, the arguments as sent, and its cancel), then in `finished` with its outcome. The
 * gate's events reach the host app's listeners from here.
 */

import { type Signal, signal } from '@preact/signals';
import type { Caller, Gate, GateEvent, GateResult } from '../gate/index.js';
import type { CallRequest } from './controller-types.js';
import type { FinishedCall, RunningCall } from './types.js';

/** Finished calls kept for the Activity view. */
const KEEP_FINISHED = 50;
/** Progress reports kept per call for its history (a long call may send thousands). */
const PROGRESS_KEPT = 100;

export interface Calls {
  readonly running: Signal<RunningCall[]>;
  readonly finished: Signal<FinishedCall[]>;
  call(request: CallRequest): Promise<GateResult>;
  cancel(invocationId: string): void;
  onEvent(listener: (event: GateEvent) => void): () => void;
  /** The controller closes: calls already sent are cancelled (the server is told). */
  cancelSent(): void;
}

export interface CallsOptions {
  /** The gate, once loaded. */
  gate: Promise<Gate>;
  /** Who calls when the request names nobody: the person at the panel. */
  person: Caller;
  defaultTimeoutMs?: number;
  /** W3C trace context for calls given none. */
  traceContext?: 'start';
  /** Throws when the controller can take no more calls (it was closed). */
  checkOpen: () => void;
  /** Told when a call to the server failed, so a connection that ended says so beside the server. */
  onFailure: (serverId: string) => void;
}

export function createCalls(options: CallsOptions): Calls {
  const running = signal<RunningCall[]>([]);
  const finished = signal<FinishedCall[]>([]);
  const listeners = new Set<(event: GateEvent) => void>();

  options.gate.then(
    (gate) =>
      gate.onEvent((event) => {
        if (event.type === 'sent')
          running.value = running.value.map((call) =>
            call.invocationId === event.invocationId
              ? { ...call, sentAt: Date.now(), arguments: event.arguments }
              : call,
          );
        if (event.type === 'task') followTask(gate, event);
        if (event.type === 'finished' || event.type === 'failed') endResumed(event);
        if (event.type === 'progress')
          running.value = running.value.map((call) => {
            if (call.invocationId !== event.invocationId) return call;
            const progress = { progress: event.progress, total: event.total, message: event.message };
            const history = [...(call.progressHistory ?? []), { at: Date.now(), ...progress }];
            return { ...call, progress, progressHistory: history.slice(-PROGRESS_KEPT) };
          });
        for (const listener of listeners) listener(event);
      }),
    // No gate (the log could not be opened): no call runs, and each says why when it is made.
    () => undefined,
  );

  /** Calls taken up again after a reload (no call() of this page waits for them), by invocation id. */
  const resumed = new Set<string>();

  /** A task's status on its running call; a resumed task gets a running entry of its own. */
  function followTask(gate: Gate, event: Extract<GateEvent, { type: 'task' }>): void {
    const task = {
      id: event.taskId,
      status: event.status,
      statusMessage: event.statusMessage,
      nextPollAt: event.nextPollAt,
      resumed: event.resumed,
    };
    if (event.resumed && !running.value.some((call) => call.invocationId === event.invocationId)) {
      resumed.add(event.invocationId);
      const now = Date.now();
      running.value = [
        ...running.value,
        {
          invocationId: event.invocationId,
          serverId: event.serverId,
          toolName: event.toolName,
          caller: options.person,
          startedAt: now,
          sentAt: now,
          timeoutMs: options.defaultTimeoutMs ?? 60_000,
          task,
          cancel: () => gate.cancelResumedTask(event.invocationId),
        },
      ];
      return;
    }
    running.value = running.value.map((call) =>
      call.invocationId === event.invocationId ? { ...call, task } : call,
    );
  }

  /** A resumed task ended: into `finished`, like a call of this page. */
  function endResumed(event: Extract<GateEvent, { type: 'finished' | 'failed' }>): void {
    if (!resumed.delete(event.invocationId)) return;
    const last = running.value.find((item) => item.invocationId === event.invocationId);
    running.value = running.value.filter((item) => item.invocationId !== event.invocationId);
    if (!last) return;
    const error = event.type === 'failed' ? (event.error as Error & { kind?: string }) : undefined;
    const outcome: FinishedCall['outcome'] =
      event.type === 'finished'
        ? { ok: true, result: event.result }
        : { ok: false, error: error?.message ?? 'failed', kind: error?.kind ?? error?.name ?? 'failed' };
    finished.value = [
      {
        invocationId: event.invocationId,
        serverId: last.serverId,
        toolName: last.toolName,
        finishedAt: Date.now(),
        outcome,
        caller: last.caller,
        startedAt: last.startedAt,
        ...(last.sentAt !== undefined ? { sentAt: last.sentAt } : {}),
      },
      ...finished.value,
    ].slice(0, KEEP_FINISHED);
  }

  async function call(request: CallRequest): Promise<GateResult> {
    options.checkOpen();
    const { serverId, toolName, arguments: args, signal: given, onRequested } = request;
    const caller = request.caller ?? options.person;
    const abort = new AbortController();
    /** Set when the person pressed Cancel in the panel (controller.cancel), not the caller's signal. */
    let cancelledInPanel = false;
    if (given) {
      if (given.aborted) abort.abort(given.reason);
      given.addEventListener('abort', () => abort.abort(given.reason), { once: true });
    }
    const timeoutMs = options.defaultTimeoutMs ?? 60_000;
    const gate = await options.gate;
    let invocationId = '';
    const stop = gate.onEvent((event) => {
      if (event.type !== 'requested' || invocationId || event.request.signal !== abort.signal) return;
      invocationId = event.invocationId;
      running.value = [
        ...running.value,
        {
          invocationId,
          serverId,
          toolName,
          caller,
          startedAt: Date.now(),
          timeoutMs,
          arguments: args,
          cancel: () => {
            cancelledInPanel = true;
            abort.abort(new DOMException('Cancelled in the Toolgate panel', 'AbortError'));
          },
        },
      ];
      onRequested?.(invocationId);
    });
    const done = (outcome: FinishedCall['outcome']) => {
      stop();
      const last = running.value.find((item) => item.invocationId === invocationId);
      running.value = running.value.filter((item) => item.invocationId !== invocationId);
      const sent = outcome.ok ? outcome.result.arguments : last?.arguments;
      finished.value = [
        {
          invocationId,
          serverId,
          toolName,
          finishedAt: Date.now(),
          outcome,
          caller,
          ...(last ? { startedAt: last.startedAt } : {}),
          ...(last?.sentAt !== undefined ? { sentAt: last.sentAt } : {}),
          ...(sent ? { arguments: sent } : {}),
          ...(last?.progressHistory ? { progressHistory: last.progressHistory } : {}),
        },
        ...finished.value,
      ].slice(0, KEEP_FINISHED);
    };
    const trace = request.trace ?? options.traceContext;
    try {
      const result = await gate.call({
        serverId,
        toolName,
        arguments: args,
        caller,
        signal: abort.signal,
        timeoutMs,
        ...(trace ? { trace } : {}),
        startedFrom: request.startedFrom,
        ...(request.batch ? { batch: request.batch } : {}),
      });
      done({ ok: true, result });
      return result;
    } catch (error) {
      const failure = error as Error & { kind?: string; by?: unknown; reason?: unknown };
      const by =
        failure.by === 'person' || failure.by === 'policy' || failure.by === 'timeout'
          ? failure.by
          : undefined;
      done({
        ok: false,
        error: failure.message,
        kind: failure.kind ?? failure.name,
        ...(by ? { by } : {}),
        ...(by && typeof failure.reason === 'string' ? { reason: failure.reason } : {}),
        ...(cancelledInPanel ? { cancelledInPanel } : {}),
      });
      options.onFailure(serverId);
      throw error;
    }
  }

  return {
    running,
    finished,
    call,
    cancel(invocationId) {
      running.value.find((item) => item.invocationId === invocationId)?.cancel();
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    cancelSent() {
      // Those still waiting for approval get the denial from the person's queue instead.
      for (const item of running.value) if (item.sentAt !== undefined) item.cancel();
    },
  };
}
