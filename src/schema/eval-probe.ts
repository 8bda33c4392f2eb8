/**
 * Whether this realm may compile code from strings (Ajv's `new Function`). MV3 extension pages,
 * service workers, content scripts and pages with `script-src 'self'` may not. Probed once per
 * realm; under a CSP that forbids it, the probe itself is the one (caught) violation reported.
 */

let verdict: boolean | undefined;

/** Code that needs eval; it throws (EvalError, or TypeError under Trusted Types) where eval is blocked. */
function defaultEvalProbe(): unknown {
  return new Function('return 1')();
}

/** Runs `probe` once and tells whether it ran; the default probe's answer is kept for the realm. */
export function evalAllowed(probe: () => unknown = defaultEvalProbe): boolean {
  if (probe === defaultEvalProbe && verdict !== undefined) return verdict;
  let allowed: boolean;
  try {
    probe();
    allowed = true;
  } catch {
    // Any throw counts: EvalError under a CSP, TypeError under Trusted Types, a test's fake.
    allowed = false;
  }
  if (probe === defaultEvalProbe) verdict = allowed;
  return allowed;
}

/** Whether an error thrown while compiling means "no eval here" rather than "bad schema". */
export function isEvalBlocked(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'EvalError') return true;
  return typeof message === 'string' && /Content Security Policy|unsafe-eval|TrustedScript/i.test(message);
}

/** The realm's verdict if the default probe has run (for diagnostics); undefined before. */
export function evalVerdict(): boolean | undefined {
  return verdict;
}
