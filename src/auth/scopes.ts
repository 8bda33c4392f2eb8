/**
 * Which scopes to ask for (MCP "Scope Selection Strategy" and "Step-Up Authorization Flow"):
 * the challenge's `scope` when the server sent one, else every `scopes_supported` of the
 * Protected Resource Metadata, else none (the parameter is omitted). A re-authorization asks for
 * the union of what was asked before and what the challenge names, so earlier grants are kept.
 * `offline_access` is added only when the authorization server lists it (SEP-2207).
 */

interface ScopeInputs {
  /** From WWW-Authenticate, authoritative for the current request. */
  challenged?: string[];
  /** From the Protected Resource Metadata. */
  resourceSupported?: string[];
  /** Asked for in the previous authorization with the same authorization server. */
  previous?: string[];
  /** The authorization server's `scopes_supported`. */
  serverSupported?: string[];
  /** Whether this client wants refresh tokens (it does unless the host says otherwise). */
  wantsOfflineAccess: boolean;
}

const OFFLINE_ACCESS = 'offline_access';

export function selectScopes(inputs: ScopeInputs): string[] {
  const current = inputs.challenged?.length ? inputs.challenged : (inputs.resourceSupported ?? []);
  const scopes = union(inputs.previous ?? [], current);
  if (
    inputs.wantsOfflineAccess &&
    scopes.length > 0 &&
    inputs.serverSupported?.includes(OFFLINE_ACCESS) &&
    !scopes.includes(OFFLINE_ACCESS)
  )
    scopes.push(OFFLINE_ACCESS);
  return scopes;
}

/** The scopes of `a` then those of `b` not already there, in order. */
function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** True when every challenged scope is already granted: asking again cannot help. */
export function alreadyGranted(
  challenged: readonly string[] | undefined,
  granted: readonly string[],
): boolean {
  return (
    challenged !== undefined && challenged.length > 0 && challenged.every((scope) => granted.includes(scope))
  );
}
