/**
 * The Inspect view's records (each server's JSON-RPC messages and log messages) from the worker to
 * an extension page. They change with every message a server sends and hold up to hundreds of
 * entries each, some large (a result of megabytes), so they cross the port as what is new since the
 * last message, never whole: a progress stream costs one small message per notification. A server
 * whose record was cut or removed is sent whole again (`reset`).
 */

import { effect, type Signal } from '@preact/signals';
import { LOG_KEPT, type ServerLogEntry, TRAFFIC_KEPT, type TrafficEntry } from '../../src/session/index.js';
import type { DiagnosticsKind, WireDiagnostics } from './wire.js';

type Records<T> = Readonly<Record<string, readonly T[]>>;

/** How many entries each kind keeps per server, on both sides of the port. */
const KEPT: Record<DiagnosticsKind, number> = { traffic: TRAFFIC_KEPT, serverLog: LOG_KEPT };

/**
 * Worker side: sends `source`'s changes as WireDiagnostics until the returned stop is called.
 * Entries are immutable and appended one by one, so the last one sent marks where the new ones
 * start; when it is gone from the record (cut, or the server reconnected), the record goes whole.
 */
export function sendDiagnostics<T extends TrafficEntry | ServerLogEntry>(
  kind: DiagnosticsKind,
  source: Signal<Records<T>>,
  send: (message: WireDiagnostics) => void,
): () => void {
  const lastSent = new Map<string, T>();
  return effect(() => {
    const records = source.value;
    for (const [serverId, entries] of Object.entries(records)) {
      const last = lastSent.get(serverId);
      if (entries.length === 0 && last === undefined) continue;
      const from = last === undefined ? -1 : entries.lastIndexOf(last);
      const fresh = from >= 0 ? entries.slice(from + 1) : entries;
      if (fresh.length === 0 && from >= 0) continue;
      send({ type: 'diagnostics', kind, serverId, reset: from < 0, entries: [...fresh] });
      const newest = entries.at(-1);
      if (newest === undefined) lastSent.delete(serverId);
      else lastSent.set(serverId, newest);
    }
    for (const serverId of [...lastSent.keys()])
      if (!(serverId in records)) {
        lastSent.delete(serverId);
        send({ type: 'diagnostics', kind, serverId, reset: true, entries: [] });
      }
  });
}

/** Page side: applies one message to the page's copy, keeping as many entries as the worker does. */
export function applyDiagnostics(
  target: Signal<Records<unknown>>,
  message: Pick<WireDiagnostics, 'kind' | 'serverId' | 'reset' | 'entries'>,
): void {
  const { [message.serverId]: before = [], ...others } = target.value;
  const entries = (message.reset ? message.entries : [...before, ...message.entries]).slice(
    -KEPT[message.kind],
  );
  target.value = entries.length > 0 ? { ...others, [message.serverId]: entries } : others;
}
