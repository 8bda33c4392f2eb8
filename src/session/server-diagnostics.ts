/**
 * What the debugging views show of each connection: its last JSON-RPC messages both ways and the log
 * messages (`notifications/message`) the server sent. Recorded from the moment the connection is
 * made, whether or not a view is open; loaded with the connection code, not with the first screen.
 */

import type { Signal } from '@preact/signals';
import type { McpClient } from '../client/index.js';
import type { ServerLogEntry, TrafficEntry } from './controller.js';

/** Messages kept per server for the raw view. */
export const TRAFFIC_KEPT = 200;
/** Log messages kept per server. */
export const LOG_KEPT = 500;

/** The syslog levels of MCP logging, least severe first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

export interface DiagnosticsSinks {
  traffic: Signal<Readonly<Record<string, readonly TrafficEntry[]>>>;
  serverLog: Signal<Readonly<Record<string, readonly ServerLogEntry[]>>>;
}

/** Appends to one server's list, dropping the oldest past `kept`. */
export function appendKept<T>(
  lists: Readonly<Record<string, readonly T[]>>,
  serverId: string,
  item: T,
  kept: number,
): Readonly<Record<string, readonly T[]>> {
  const list = lists[serverId] ?? [];
  return {
    ...lists,
    [serverId]: [...(list.length >= kept ? list.slice(list.length - kept + 1) : list), item],
  };
}

/** A log message's fields, checked: server data is untrusted in shape as well as content. */
export function asLogEntry(message: unknown, at: number): ServerLogEntry | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== 'notifications/message' || typeof params !== 'object' || params === null) return undefined;
  const { level, logger, data } = params as { level?: unknown; logger?: unknown; data?: unknown };
  return {
    at,
    level: typeof level === 'string' ? level : 'unknown',
    ...(typeof logger === 'string' ? { logger } : {}),
    data,
  };
}

/** Records a connection's messages and log messages into the sinks; returns the stop function. */
export function watchServer(client: McpClient, serverId: string, sinks: DiagnosticsSinks): () => void {
  let seq = sinks.traffic.value[serverId]?.at(-1)?.seq ?? 0;
  return client.observeMessages((direction, message) => {
    const at = Date.now();
    sinks.traffic.value = appendKept(
      sinks.traffic.value,
      serverId,
      { seq: ++seq, at, direction, message },
      TRAFFIC_KEPT,
    );
    const entry = direction === 'received' ? asLogEntry(message, at) : undefined;
    if (entry) sinks.serverLog.value = appendKept(sinks.serverLog.value, serverId, entry, LOG_KEPT);
  });
}

/** "tools/call #3 (echo)", "result #3", "error #3: …", "notifications/progress". */
export function summarize(message: unknown): string {
  if (typeof message !== 'object' || message === null) return `not a JSON-RPC message (${typeof message})`;
  if (Array.isArray(message)) return `a batch of ${message.length}`;
  const { method, id, params, error } = message as {
    method?: unknown;
    id?: unknown;
    params?: { name?: unknown };
    error?: { message?: unknown };
  };
  const number = typeof id === 'string' || typeof id === 'number' ? ` #${id}` : '';
  if (typeof method === 'string') {
    const name = typeof params?.name === 'string' ? ` (${params.name})` : '';
    return `${method}${number}${name}`;
  }
  if (error !== undefined)
    return `error${number}${typeof error?.message === 'string' ? `: ${error.message.slice(0, 120)}` : ''}`;
  return `result${number}`;
}
