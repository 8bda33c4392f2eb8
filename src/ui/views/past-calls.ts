/**
 * The calls a rule is tried on before it is saved: the newest tool calls of the audit log, with
 * their arguments (from the entry's preview when it holds them whole, else from the chain events).
 * Actions recorded beside calls (sign-ins, apps shown) are not calls and are left out. Arguments
 * were redacted before storage, so a condition on a secret sees the redaction mark, as stored.
 */

import type { AuditEntry, AuditLog } from '../../audit/index.js';
import type { PastCall } from '../../gate/index.js';
import type { JsonObject } from '../../protocol/index.js';
import { actionLabel } from './audit-words.js';

/** How many of the newest calls a rule is tried on. */
const TRIAL_CALLS = 200;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

async function argumentsOf(log: AuditLog, entry: AuditEntry): Promise<JsonObject> {
  try {
    const preview: unknown = JSON.parse(entry.argumentsPreview);
    if (isObject(preview)) return preview;
  } catch {
    // A preview cut short: the chain events hold the whole arguments.
  }
  let found: unknown = {};
  for (const event of await log.eventsOf(entry.invocationId)) {
    const body = event.body as Record<string, unknown>;
    if (event.kind === 'pending' || event.kind === 'refusal')
      found = body.arguments ?? body.proposedArguments ?? found;
  }
  return isObject(found) ? found : {};
}

/** The newest `limit` tool calls in the log, newest first. */
export async function pastCalls(log: AuditLog, limit: number = TRIAL_CALLS): Promise<PastCall[]> {
  const calls: PastCall[] = [];
  let cursor: string | undefined;
  // Actions are skipped, so a page may hold fewer calls than asked for: read on until enough.
  do {
    const page = await log.query({ limit, ...(cursor ? { cursor } : {}) });
    for (const entry of page.entries) {
      if (calls.length >= limit) break;
      if (actionLabel(entry) !== undefined) continue;
      calls.push({
        caller: entry.caller,
        serverId: entry.serverId,
        toolName: entry.toolName,
        arguments: await argumentsOf(log, entry),
      });
    }
    cursor = page.cursor;
  } while (cursor && calls.length < limit);
  return calls;
}
