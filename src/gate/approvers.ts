/** Approvers for hosts that decide in code. The widget implements the same interface for people. */

import type { ApprovalAnswer, ApprovalRequest, Approver } from './types.js';

/** Answers every approval with a function of the request: the host's own logic. */
export function programmaticApprover(
  decide: (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>,
): Approver {
  return { approve: async (request) => decide(request) };
}

/** Denies everything that needs a person: the safe default when no person is around. */
export const denyAllApprover: Approver = programmaticApprover(() => ({
  action: 'deny',
  reason: 'no person is available to approve this call',
  decidedBy: 'toolgate: no approver configured',
}));
