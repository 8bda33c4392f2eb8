/**
 * The page's side of MCP Apps in an extension page: what the app host (src/apps) asks of its
 * controller, turned into commands to the worker. An app's call names the app (its resource URI) and
 * carries an id of the page's choosing, so the app's cancellation reaches the worker's gate; the
 * worker, not the page, makes the caller out of it.
 */

import type { Caller, GateResult } from '../../src/gate/index.js';
import type { JsonObject } from '../../src/protocol/index.js';

/** Sends one command to the worker and waits for its answer. */
export type WorkerCommand = <T>(method: string, ...params: unknown[]) => Promise<T>;

/** An app's tools/call, run by the worker's gate under the app's name. */
export async function callForApp(
  command: WorkerCommand,
  serverId: string,
  toolName: string,
  args: JsonObject,
  caller: Caller,
  signal?: AbortSignal,
): Promise<GateResult> {
  signal?.throwIfAborted();
  const callId = crypto.randomUUID();
  const cancel = () => void command('cancelAppCall', callId).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await command<GateResult>('callForApp', callId, serverId, caller.label ?? '', toolName, args);
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** resources/read through the worker's connection to the server. */
export function readResourceThrough(command: WorkerCommand) {
  return (serverId: string, uri: string) => command<JsonObject>('readResource', serverId, uri);
}
