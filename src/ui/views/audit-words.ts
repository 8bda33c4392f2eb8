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

/** An entry's outcome in words: a call still out as a task says so, until its final record. */
export function outcomeWordsOf(entry: Pick<AuditEntry, 'outcome' | 'task'>): OutcomeWords {
  if (entry.outcome === 'pending' && entry.task)
    return { label: 'Running as a task', icon: '…', tone: 'neutral' };
  return OUTCOME_WORDS[entry.outcome];
}

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
 * Denials the panel gives on the person's behalf, not the person's answer (session/person-queue.ts):
 * told as what happened, never as "Denied by you".
 */
const DENIED_FOR_THE_PERSON: Record<string, string> = {
  'the Toolgate panel was closed': 'Denied because the Toolgate panel was closed; nothing was sent',
  'the caller cancelled the call': 'Cancelled by its caller before it was approved; nothing was sent',
};

/**
 * The actions recorded beside tool calls (gate/action-record.ts: sign-ins, apps shown, skills),
 * by the name they are recorded under, as a person reads them.
 */
const ACTION_LABELS: Record<string, string> = {
  'auth/sign-in': 'Signed in',
  'auth/refresh': 'Sign-in renewed',
  'auth/sign-out': 'Signed out',
  'auth/sign-in-failed': 'Sign-in failed',
  'auth/sign-in-declined': 'Sign-in declined',
  'apps/show': 'App shown',
  'skills/approve': 'Skill approved',
  'skills/revoke': 'Skill approval revoked',
  'skills/load': 'Skill loaded',
  'skills/read': 'Skill file read',
  'skills/inspect': 'Skill inspected',
};

/** The decision codes only action records carry: a tool call's decision never has one of them. */
const ACTION_CODES: ReadonlySet<string> = new Set(['sign-in', 'app-shown', 'person-action', 'not-approved']);

/**
 * "Sign-in declined", "App shown", "Skill loaded": the plain label of an action record, or undefined
 * for a tool call. The name alone is not enough (a server may name a tool `auth/sign-in`, breaking
 * the naming rules): the entry's decision must be one only actions record, or, for a skill's load
 * and read, the skill's approval.
 */
export function actionLabel(entry: Pick<AuditEntry, 'toolName' | 'decision'>): string | undefined {
  const label = ACTION_LABELS[entry.toolName];
  const source = entry.decision?.source;
  if (label === undefined || source === undefined) return undefined;
  if (source.kind === 'default' && ACTION_CODES.has(source.reason)) return label;
  if (source.kind === 'remembered' && entry.toolName.startsWith('skills/')) return label;
  return undefined;
}

/**
 * Who decided, in a sentence, from what the gate records on each path: the person's own click on
 * Call (`person-started`), an answer in the approval dialog or the confirmation of an own call, a
 * remembered approval, a rule or a default of the policy; an action's own decision. The stored
 * decision, approver and reason stay in the raw events.
 */
export function decisionInWords(entry: AuditEntry): string {
  const { decision, approvedBy, reason, outcome } = entry;
  const source = decision?.source;
  const action = actionLabel(entry) !== undefined;
  if (outcome === 'denied' || outcome === 'invalid-arguments' || (outcome === 'cancelled' && !entry.sends)) {
    const own = reason?.match(DENIED_BY_PERSON);
    if (own) {
      const given = own[1]?.trim();
      if (given && DENIED_FOR_THE_PERSON[given]) return DENIED_FOR_THE_PERSON[given];
      return given ? `Denied by you: “${given}”` : 'Denied by you';
    }
    if (action && source?.kind === 'default' && source.reason === 'sign-in')
      return 'You declined to sign in (Not now); nothing was sent to the authorization server';
    if (action && source?.kind === 'default' && source.reason === 'not-approved')
      return `Refused: ${reason ?? decision?.reason}`;
    if (decision?.verdict === 'deny')
      return source?.kind === 'rule'
        ? `Refused by your rule: ${decision.reason}`
        : `Refused by policy: ${decision.reason}`;
    if (outcome === 'cancelled') return 'Cancelled before it was approved; nothing was sent';
    if (reason?.startsWith('nobody answered')) return `Denied: ${reason}; nothing was sent`;
    return `Refused before sending: ${reason ?? 'no reason recorded'}`;
  }
  if (!decision || !source) return approvedBy ? `Approved by ${approvedBy}` : 'No decision recorded';
  if (decision.verdict === 'allow') {
    if (source.kind === 'default' && source.reason === 'person-started') return 'Approved by your own click';
    if (action) return actionDecision(entry.toolName, source, decision.reason);
    if (source.kind === 'remembered') {
      const reach =
        source.reach === 'server'
          ? ' of the whole server'
          : source.reach === 'server-read-only'
            ? ' of the server’s read-only tools'
            : '';
      return source.scope === 'always'
        ? `Allowed by your earlier “Always allow”${reach}`
        : `Allowed by your earlier approval${reach} for ${source.scope === 'hour' ? 'an hour' : 'this session'}`;
    }
    // Older logs: the own click recorded before the gate had its own decision for it.
    if (entry.caller.kind === 'person' && /click|form/i.test(approvedBy ?? ''))
      return 'Approved by your own click';
    if (source.kind === 'rule') return `Allowed by your rule: ${decision.reason}`;
    return `Allowed by policy: ${decision.reason}`;
  }
  // Asked: someone answered.
  return answeredBy(approvedBy);
}

/** Who answered a call the policy asked about, from the approver's recorded words. */
function answeredBy(approvedBy: string | undefined): string {
  if (approvedBy === undefined) return 'Approved';
  if (/confirming your own call/i.test(approvedBy)) return 'You confirmed your own call';
  if (/click|form/i.test(approvedBy)) return 'Approved by your own click';
  // "you, in the approval dialog", or "person (panel)" in older logs.
  if (/^person\b|^you\b/i.test(approvedBy))
    return /acknowledg|checked the arguments/i.test(approvedBy)
      ? 'You approved in the approval dialog, confirming you checked the arguments yourself'
      : 'You approved in the approval dialog';
  return `Approved by ${approvedBy}`;
}

/** What allowed an action (a sign-in, an app shown, a skill's step). */
function actionDecision(
  toolName: string,
  source: NonNullable<AuditEntry['decision']>['source'],
  reason: string,
): string {
  if (source.kind === 'remembered') return 'Allowed by your approval of this skill';
  if (source.kind === 'default' && source.reason === 'person-action')
    return 'Your own action in the Skills view';
  switch (toolName) {
    case 'auth/sign-in':
      return `You signed in. ${reason}`;
    case 'auth/refresh':
      return `Renewed by Toolgate. ${reason}`;
    case 'auth/sign-out':
      return 'You signed out';
    case 'auth/sign-in-failed':
      return 'You started the sign-in; it did not finish';
    default:
      return reason;
  }
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

/** "1 entry", "9 entries"; "1 event", "17 events". */
export function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
