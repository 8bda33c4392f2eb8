/**
 * How a finished call is told to the person, one vocabulary for every view that shows one (Activity,
 * the Tools form's outcome): who stopped it and when ("You denied this call", "Cancelled by you
 * after 1.7 s"), instead of the gate's sentence for the caller ("The person denied …", "tools/call
 * was cancelled"), which still goes to callers and the audit log unchanged.
 */

import type { Caller } from '../../gate/index.js';
import type { FinishedCall } from '../../session/index.js';

/**
 * How a call that did not succeed ended, in the person's words: who stopped it and when, instead of
 * the gate's sentence for the caller ("The person denied …", "tools/call was cancelled").
 * `describe` names the caller that cancelled (the gate's describeCaller): passed in, so the Tools
 * form, whose calls are the person's own, does not load the gate's wording on the first screen.
 */
export function plainFailure(call: FinishedCall, describe?: (caller: Caller) => string): string {
  const outcome = call.outcome;
  if (outcome.ok) return '';
  const after = call.startedAt !== undefined ? ` after ${duration(call.finishedAt - call.startedAt)}` : '';
  if (outcome.cancelledInPanel) return `Cancelled by you${after}.`;
  if (outcome.kind === 'cancelled')
    return `Cancelled by ${call.caller && describe ? describe(call.caller) : 'its caller'}${after}.`;
  if (outcome.kind === 'denied' && outcome.by === 'person')
    return `You denied this call${outcome.reason ? ` (your reason: ${outcome.reason})` : ''}; nothing was sent.`;
  if (outcome.kind === 'denied' && outcome.by === 'policy')
    return `Denied by your rules${outcome.reason ? `: ${outcome.reason}` : ''}; nothing was sent.`;
  return outcome.error;
}

/** "340 ms", "2.4 s", "3 min 5 s". */
export function duration(ms: number): string {
  const value = Math.max(0, ms);
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(1)} s`;
  return `${Math.floor(value / 60_000)} min ${Math.round((value % 60_000) / 1000)} s`;
}
