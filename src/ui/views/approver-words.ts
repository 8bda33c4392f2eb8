/**
 * Who decided, as the panel's approvers record it (the audit log's `approvedBy`, a remembered
 * grant's `decidedBy`): plain words a person reads in the log's raw events and exports, and the
 * audit view's decision sentence (audit-words.ts) recognises. Older logs hold "person (panel)";
 * audit-words.ts still reads those.
 */

/** An answer given in the full approval dialog. */
export const DECIDED_IN_DIALOG = 'you, in the approval dialog';

/** An approval in the dialog of arguments that could not be checked against the tool's schema. */
export const APPROVED_UNCHECKED_IN_DIALOG =
  'you, in the approval dialog, confirming you checked the arguments yourself (they could not be checked against the schema)';

/** The person confirmed their own call from a tool's form (a destructive tool, or a rule asks). */
export const CONFIRMED_OWN_CALL = 'you, confirming your own call from the tool’s form';

/** The person said no in the confirmation of their own call. */
export const DENIED_OWN_CALL = 'you, in the confirmation of your own call';
