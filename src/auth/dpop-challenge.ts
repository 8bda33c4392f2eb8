/**
 * What a resource server's `WWW-Authenticate` says to a DPoP client (RFC 9449 §7.1, §9). A server
 * that takes DPoP-bound tokens challenges with the `DPoP` scheme, carrying the same parameters a
 * Bearer challenge does (`resource_metadata`, `scope`, `error`); when it wants a nonce it answers
 * 401 with `error="use_dpop_nonce"` and the nonce in a `DPoP-Nonce` header. The reading is as
 * lenient as the Bearer one (never throws) and the nonce is checked against the RFC's syntax
 * before a request is sent again for it.
 */

import { type BearerChallenge, oauthParams, parseChallenges } from './www-authenticate.js';

/** The OAuth challenge of an answer and the scheme it came with. */
interface ResourceChallenge extends BearerChallenge {
  scheme: 'bearer' | 'dpop';
}

/**
 * The OAuth challenge of a `WWW-Authenticate` header: the first Bearer one, else the first DPoP
 * one (a server that offers both takes either kind of token; its Bearer parameters are the ones
 * every client reads). Undefined when the header has neither.
 */
export function resourceChallenge(header: string | null | undefined): ResourceChallenge | undefined {
  const challenges = parseChallenges(header);
  const chosen =
    challenges.find((challenge) => challenge.scheme.toLowerCase() === 'bearer') ??
    challenges.find((challenge) => challenge.scheme.toLowerCase() === 'dpop');
  if (!chosen) return undefined;
  return { scheme: chosen.scheme.toLowerCase() === 'bearer' ? 'bearer' : 'dpop', ...oauthParams(chosen) };
}

/** Whether the server takes DPoP-bound tokens: any DPoP challenge in the header (RFC 9449 §7.1). */
export function offersDPoP(header: string | null | undefined): boolean {
  return parseChallenges(header).some((challenge) => challenge.scheme.toLowerCase() === 'dpop');
}

/** RFC 9449 §8.1: `nonce = 1*NQCHAR`, NQCHAR = %x21 / %x23-5B / %x5D-7E (no space, `"` or `\`). */
const NONCE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Whether a `DPoP-Nonce` header value is a nonce by the RFC's syntax. */
export function isDPoPNonce(value: string | null | undefined): value is string {
  return typeof value === 'string' && NONCE.test(value);
}

/**
 * Whether a resource server's answer asks for the request again with its nonce (RFC 9449 §9):
 * a 401, a DPoP challenge whose error is `use_dpop_nonce`, and a well-formed `DPoP-Nonce`. Anything
 * less is an ordinary 401 (sign in again), never a loop of resends.
 */
export function asksForDPoPNonce(
  status: number,
  wwwAuthenticate: string | null | undefined,
  nonce: string | null | undefined,
): boolean {
  if (status !== 401 || !isDPoPNonce(nonce)) return false;
  return parseChallenges(wwwAuthenticate).some(
    (challenge) => challenge.scheme.toLowerCase() === 'dpop' && challenge.params.error === 'use_dpop_nonce',
  );
}
