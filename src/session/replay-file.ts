/**
 * A session's calls as a file that can be loaded and run again: which server, which tool, the
 * arguments as the audit log shows them (secrets redacted: the file may travel), oldest first.
 * Loading checks everything it reads and names the first problem (where, and what was expected),
 * so a bad file is refused whole with a reason and nothing already loaded is touched.
 */

import { isJsonObject, type JsonObject, redactSecrets } from '../protocol/index.js';
import type { FinishedCall } from './types.js';

const REPLAY_FORMAT = 'toolgate-calls';
const REPLAY_VERSION = 1;
/** Larger files are refused before parsing: a session keeps 50 calls, far below this. */
export const REPLAY_MAX_BYTES = 5 * 1024 * 1024;
export const REPLAY_MAX_CALLS = 1000;
/** Server ids are URLs, tool names are short: this only stops a file from flooding the view. */
const MAX_NAME = 2048;

export interface ReplayCall {
  serverId: string;
  /** The server's name when exported (shown when its id is not connected now). */
  serverLabel?: string;
  toolName: string;
  arguments: JsonObject;
  /** When the call was first made (ISO 8601), for the person's orientation only. */
  calledAt?: string;
}

interface ReplayFile {
  format: typeof REPLAY_FORMAT;
  version: typeof REPLAY_VERSION;
  exportedAt: string;
  calls: ReplayCall[];
}

/** The calls to export, oldest first, arguments redacted as the views show them. */
export function replayFileOf(
  finished: readonly FinishedCall[],
  serverLabel: (serverId: string) => string,
  now: Date = new Date(),
): ReplayFile {
  const calls = [...finished]
    .sort((a, b) => (a.startedAt ?? a.finishedAt) - (b.startedAt ?? b.finishedAt))
    .map((call) => ({
      serverId: call.serverId,
      serverLabel: serverLabel(call.serverId),
      toolName: call.toolName,
      arguments: redactSecrets(call.arguments ?? {}).value,
      calledAt: new Date(call.startedAt ?? call.finishedAt).toISOString(),
    }));
  return { format: REPLAY_FORMAT, version: REPLAY_VERSION, exportedAt: now.toISOString(), calls };
}

type ReplayParse = { ok: true; file: ReplayFile } | { ok: false; problem: string };

/** Reads a replay file's text; never throws. */
export function parseReplayFile(text: string): ReplayParse {
  const fail = (problem: string): ReplayParse => ({ ok: false, problem });
  if (new TextEncoder().encode(text).length > REPLAY_MAX_BYTES)
    return fail(`The file is larger than ${REPLAY_MAX_BYTES / 1024 / 1024} MB; a calls file is far smaller.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail(`The file is not JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (!isJsonObject(data)) return fail('The file holds no JSON object; a calls file is one object.');
  if (data.format !== REPLAY_FORMAT)
    return fail(
      `"format" is ${describe(data.format)}, not "${REPLAY_FORMAT}": this is not a Toolgate calls file.`,
    );
  if (data.version !== REPLAY_VERSION)
    return fail(`"version" is ${describe(data.version)}; this Toolgate reads version ${REPLAY_VERSION}.`);
  const exportedAt = typeof data.exportedAt === 'string' ? data.exportedAt : '';
  if (!Array.isArray(data.calls)) return fail(`"calls" is ${describe(data.calls)}, not a list of calls.`);
  if (data.calls.length > REPLAY_MAX_CALLS)
    return fail(`"calls" lists ${data.calls.length} calls; at most ${REPLAY_MAX_CALLS} are read.`);
  const calls: ReplayCall[] = [];
  for (const [index, item] of data.calls.entries()) {
    const where = `calls[${index}]`;
    if (!isJsonObject(item)) return fail(`${where} is ${describe(item)}, not a call (an object).`);
    for (const field of ['serverId', 'toolName'] as const) {
      const value = item[field];
      if (typeof value !== 'string' || value.trim() === '')
        return fail(`${where}.${field} is ${describe(value)}; it must be a non-empty string.`);
      if (value.length > MAX_NAME) return fail(`${where}.${field} is longer than ${MAX_NAME} characters.`);
    }
    if (!isJsonObject(item.arguments))
      return fail(`${where}.arguments is ${describe(item.arguments)}; it must be an object.`);
    if (item.serverLabel !== undefined && typeof item.serverLabel !== 'string')
      return fail(`${where}.serverLabel is ${describe(item.serverLabel)}; it must be a string when given.`);
    calls.push({
      serverId: item.serverId as string,
      toolName: item.toolName as string,
      // Redacted again on load: a hand-made file with a secret in it still shows none.
      arguments: redactSecrets(item.arguments).value,
      ...(typeof item.serverLabel === 'string' ? { serverLabel: item.serverLabel.slice(0, MAX_NAME) } : {}),
      ...(typeof item.calledAt === 'string' ? { calledAt: item.calledAt.slice(0, 64) } : {}),
    });
  }
  return { ok: true, file: { format: REPLAY_FORMAT, version: REPLAY_VERSION, exportedAt, calls } };
}

/** A value in a problem's words: its type, and a short sample for a scalar. */
function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.slice(0, 40))}`;
  return `${typeof value} ${String(value)}`;
}
