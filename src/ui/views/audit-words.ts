/**
 * The audit view's words: outcomes, decisions, callers and times as a person reads them. The raw
 * values (`tool-error`, `person (panel)`) stay in the chain events the drawer shows folded; labels
 * never show them.
 */

import type { AuditEntry, EntryOutcome } from '../../audit/index.js';
import { describeCaller } from '../../gate/index.js';

interface OutcomeWords {
  label: string;
  /** A mark beside the label, so the outcome never rests on colour alone. */
  icon: string;
  /** The colour family: ok, bad, warn, neutral. */
  tone: 'ok' | 'bad' | 'warn' | 'neutral';
}

export const OUTCOME_WORDS: Record<EntryOutcome, OutcomeWords> = {
  success: { label: 'Succeeded', icon: '✓', tone: 'ok' },
  'tool-error': { label: 'Tool error', icon: '✕', tone: 'bad' },
  'protocol-error': { label: 'Failed', icon: '✕', tone: 'bad' },
  'invalid-output': { label: 'Invalid output', icon: '!', tone: 'bad' },
  denied: { label: 'Denied', icon: '⊘', tone: 'warn' },
  'invalid-arguments': { label: 'Invalid arguments', icon: '!', tone: 'warn' },
  cancelled: { label: 'Cancelled', icon: '–', tone: 'neutral' },
  'timed-out': { label: 'Timed out', icon: '⏱', tone: 'bad' },
  interrupted: { label: 'Interrupted', icon: '↯', tone: 'neutral' },
  pending: { label: 'Running', icon: '…', tone: 'neutral' },
};

/** The order the outcome chips come in: what people look for first. */
export const CHIP_ORDER: readonly EntryOutcome[] = [
  'success',
  'tool-error',
  'protocol-error',
  'denied',
  'invalid-arguments',
  'invalid-output',
  'timed-out',
  'cancelled',
  'interrupted',
  'pending',
];

/** "You", "The app (Notes)", "The web site https://a.example": who asked, capitalised. */
export function callerInWords(entry: Pick<AuditEntry, 'caller'>): string {
  const words = describeCaller(entry.caller);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The person's own denial, as the gate words it ("denied by the person: too big"). */
const DENIED_BY_PERSON = /^denied by (?:the person|you)(?::\s*(.*))?$/is;

/**
 * Who decided, in a sentence: "You approved", "Approved by your own click", "Denied by you",
 * "Refused by policy: …". The stored decision, approver and reason stay in the raw events.
 */
export function decisionInWords(entry: AuditEntry): string {
  const { decision, approvedBy, reason, outcome } = entry;
  if (outcome === 'denied' || outcome === 'invalid-arguments' || (outcome === 'cancelled' && !entry.sends)) {
    const own = reason?.match(DENIED_BY_PERSON);
    if (own) return own[1] ? `Denied by you: “${own[1]}”` : 'Denied by you';
    if (decision?.verdict === 'deny') return `Refused by policy: ${decision.reason}`;
    if (outcome === 'cancelled') return 'Cancelled before it was approved; nothing was sent';
    if (reason?.startsWith('nobody answered')) return `Denied: ${reason}; nothing was sent`;
    return `Refused before sending: ${reason ?? 'no reason recorded'}`;
  }
  if (!decision) return approvedBy ? `Approved by ${approvedBy}` : 'No decision recorded';
  if (decision.verdict === 'allow') {
    if (decision.source.kind === 'remembered')
      return decision.source.scope === 'always'
        ? 'Allowed by your earlier “Always allow”'
        : 'Allowed by your earlier approval for this session';
    if (entry.caller.kind === 'person' && /click|form/i.test(approvedBy ?? ''))
      return 'Approved by your own click';
    return `Allowed by policy: ${decision.reason}`;
  }
  // Asked: someone answered.
  if (approvedBy === undefined) return 'Approved';
  if (/click|form/i.test(approvedBy)) return 'Approved by your own click';
  if (/^person\b|^you\b/i.test(approvedBy))
    return /acknowledg/i.test(approvedBy)
      ? 'You approved, confirming you checked the arguments yourself'
      : 'You approved';
  return `Approved by ${approvedBy}`;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * A compact time for the table: "just now", "5 min ago", "3 h ago" today; "14:02 yesterday" is
 * still a date: "27 Nov, 14:02" this year, "27 Nov 2025" before. The full time is in the title.
 */
export function compactTime(at: number, now: number = Date.now()): string {
  const when = new Date(at);
  const today = new Date(now);
  const sameDay = when.toDateString() === today.toDateString();
  if (sameDay && at <= now) {
    const ago = now - at;
    if (ago < MINUTE) return 'just now';
    if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
    return `${Math.floor(ago / HOUR)} h ago`;
  }
  if (when.getFullYear() === today.getFullYear())
    return `${when.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}, ${when.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}`;
  return when.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The full timestamp, for the title of a compact time and for the drawer. */
export function fullTime(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'medium' });
}

/** "850 ms", "1.2 s", "2 min 5 s". */
export function duration(ms: number): string {
  if (ms < SECOND) return `${Math.round(ms)} ms`;
  if (ms < MINUTE) return `${(ms / SECOND).toFixed(1)} s`;
  return `${Math.floor(ms / MINUTE)} min ${Math.round((ms % MINUTE) / SECOND)} s`;
}

/** "1 entry", "9 entries"; "1 event", "17 events". */
export function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
