/**
 * The person's "not now" to a sign-in, as an error an Authorize step (or a host's `confirm`) rejects
 * with. Told apart by name and kept free of imports, so the session can make one without loading
 * the OAuth layer.
 */

export const SIGN_IN_DECLINED = 'SignInDeclinedError';

/** `message` is shown as it is: say who chose what, and how to sign in later. */
export function signInDeclined(message: string): Error {
  return Object.assign(new Error(message), { name: SIGN_IN_DECLINED });
}

export const isSignInDeclined = (error: unknown): error is Error =>
  error instanceof Error && error.name === SIGN_IN_DECLINED;
