/**
 * What the doctor concludes from what a browser lets it observe. A CORS refusal and a network
 * failure both surface as a bare TypeError, so each verdict compares two requests: one the
 * browser sends without asking (no-cors, or a simple request) and one that needs the server's word.
 */

import type { DoctorStep } from './report.js';

/** Did a request settle with an HTTP answer (true), or did the fetch reject (false)? */
type Answered = boolean;

/**
 * The CORS verdict for a simple request (no preflight), given that a no-cors request to the same
 * URL reached the server: if the simple request failed, the answer lacked an
 * Access-Control-Allow-Origin naming this origin.
 */
export function simpleCorsVerdict(
  reached: Answered,
  corsAnswered: Answered,
  origin: string,
): Pick<DoctorStep, 'outcome' | 'reason' | 'missingHeader'> {
  if (!reached) return { outcome: 'skipped', reason: 'Nothing answered, so CORS could not be checked.' };
  if (corsAnswered)
    return { outcome: 'pass', reason: `The server lets pages from ${origin} read its answers.` };
  return {
    outcome: 'fail',
    missingHeader: 'Access-Control-Allow-Origin',
    reason: `The server answers, but the browser hides its answer from this page: it must send Access-Control-Allow-Origin: ${origin}.`,
  };
}

/**
 * The preflight verdict: `base` is a POST with Content-Type: application/json only; `perHeader`
 * maps each further request header Toolgate sends to whether a POST adding it alone was answered.
 */
export function preflightVerdict(
  base: Answered,
  perHeader: Readonly<Record<string, Answered>>,
  origin: string,
): Pick<DoctorStep, 'outcome' | 'reason' | 'missingHeader'> & { refused: string[] } {
  if (!base)
    return {
      outcome: 'fail',
      refused: ['content-type'],
      missingHeader: 'Access-Control-Allow-Headers',
      reason: `The preflight (OPTIONS) for a POST with Content-Type: application/json was refused: for ${origin} the server must answer OPTIONS with Access-Control-Allow-Origin: ${origin}, Access-Control-Allow-Methods including POST and Access-Control-Allow-Headers including content-type.`,
    };
  const refused = Object.entries(perHeader)
    .filter(([, answered]) => !answered)
    .map(([name]) => name);
  if (refused.length === 0)
    return {
      outcome: 'pass',
      refused,
      reason: `The preflight allows POST with every header Toolgate sends (${Object.keys(perHeader).join(', ')}).`,
    };
  return {
    outcome: 'fail',
    refused,
    missingHeader: 'Access-Control-Allow-Headers',
    reason: `The preflight refused the request header${refused.length === 1 ? '' : 's'} ${refused.join(', ')}: the server must send Access-Control-Allow-Headers including ${refused.join(', ')} for ${origin}.`,
  };
}

/**
 * The session header verdict for a legacy (stateful) server: whether the page could read
 * mcp-session-id on the initialize answer, and whether a request without it was then refused.
 */
export function sessionHeaderVerdict(
  visible: boolean,
  laterRefusedWithoutIt: boolean,
  origin: string,
): Pick<DoctorStep, 'outcome' | 'reason' | 'missingHeader'> {
  if (visible) return { outcome: 'pass', reason: 'The page can read the mcp-session-id header.' };
  if (!laterRefusedWithoutIt)
    return {
      outcome: 'pass',
      reason:
        'The server gave no session id the page can read, and answers without one (a stateless server).',
    };
  return {
    outcome: 'fail',
    missingHeader: 'Access-Control-Expose-Headers',
    reason: `The server needs its mcp-session-id back but hides it from this page: it must send Access-Control-Expose-Headers: mcp-session-id (with Access-Control-Allow-Origin: ${origin}).`,
  };
}
