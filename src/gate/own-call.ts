/**
 * One consent per intent: a call the person starts with the Call button of a tool's own form is
 * approved by that click. The gate asks again only where the click cannot be enough: the tool says
 * it destroys things, or the person's own rules (or settings) ask about it; then one compact
 * confirmation. What the person must read before anything runs (a changed definition, poisoned
 * text, a listing that breaks the rules, arguments nobody could check) still gets the full dialog,
 * and so does every other caller: a model, an app, a site, an agent, or a call made in code.
 */

import type { CatalogEntry } from '../client/index.js';
import type {
  Decision,
  DefinitionChange,
  InvocationRequest,
  PoisoningFlag,
  ValidationReport,
} from './types.js';

/** Whether the person's own calls from a tool's form skip the dialog ('when-needed', the default) or not. */
export type ConfirmOwnCalls = 'when-needed' | 'always';

/** What the person's consent to one call takes. */
type OwnCallConsent =
  /** The click on the form's Call button approved it: nothing more is asked. */
  | { kind: 'click' }
  /** One compact confirmation naming what the call will do (Deny first when destructive). */
  | { kind: 'confirm'; destructive: boolean }
  /** The full approval dialog, as for every caller other than the person's own form. */
  | { kind: 'dialog' };

interface OwnCallInput {
  request: InvocationRequest;
  /** What the policy decided: only 'ask' reaches this rule (allow runs, deny is refused before). */
  decision: Decision;
  validation: ValidationReport;
  entry: CatalogEntry;
  definitionChange: DefinitionChange | undefined;
  poisoning: readonly PoisoningFlag[];
  confirmOwnCalls: ConfirmOwnCalls | undefined;
}

/** True when the call came from the person's own click on a tool's form (and nobody else). */
function startedByPerson(request: InvocationRequest): boolean {
  return request.startedFrom === 'form' && request.caller.kind === 'person';
}

/**
 * Destructive as the approval dialog reads it: the tool says so. A claim of harm is believed from
 * any server (it can only make Toolgate ask more); a claim of harmlessness relaxes nothing here
 * that the person's own click did not already decide.
 */
function claimsDestructive(entry: CatalogEntry): boolean {
  return entry.tool.annotations?.destructiveHint === true;
}

/** The consent one call needs, for the gate's approve step. */
export function ownCallConsent(input: OwnCallInput): OwnCallConsent {
  const { request, decision, validation, entry } = input;
  if (!startedByPerson(request) || input.confirmOwnCalls === 'always') return { kind: 'dialog' };
  // Things to read before deciding, which a compact confirmation would not show.
  if (
    input.definitionChange !== undefined ||
    validation.status !== 'valid' ||
    input.poisoning.length > 0 ||
    entry.warnings.length > 0
  )
    return { kind: 'dialog' };
  const destructive = claimsDestructive(entry);
  const policyAsks =
    decision.source.kind === 'rule' ||
    (decision.source.kind === 'default' && decision.source.reason === 'trusted-read-only-asks');
  if (destructive || policyAsks) return { kind: 'confirm', destructive };
  return { kind: 'click' };
}

/** The decision recorded for a call the person's click approved. */
export function personStartedDecision(toolName: string): Decision {
  return {
    verdict: 'allow',
    source: { kind: 'default', reason: 'person-started' },
    reason: `You started ${toolName} yourself with the Call button of its form: that click approved it.`,
  };
}

/** Who approved, as the audit log records it. */
export const APPROVED_BY_CLICK = 'you, with the Call button of the tool’s form';
