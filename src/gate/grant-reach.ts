/**
 * Which tools a remembered approval covers, as a pure function of the grant and the tool's claims.
 * A one-tool grant covers its tool by name. A server-wide grant covers a tool of its server that
 * says it does not destroy anything (read-only, or `destructiveHint: false`); one that says nothing
 * may destroy things (the specification's default), so it is covered only when the person ticked
 * `includeDestructive`. A read-only grant covers only tools that say they only read and do not say
 * they destroy things.
 */

import type { Tool, ToolAnnotations } from '../protocol/index.js';
import type { Grant, GrantReach } from './policy-types.js';

/** The tool says it cannot destroy anything (read-only, or explicitly not destructive). */
export function claimsHarmless(annotations: ToolAnnotations | undefined): boolean {
  const claims = annotations ?? {};
  if (claims.destructiveHint === true) return false;
  return claims.readOnlyHint === true || claims.destructiveHint === false;
}

/** The tool says it only reads (and does not also say it destroys things). */
function claimsReadOnly(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.readOnlyHint === true && annotations.destructiveHint !== true;
}

export function reachOf(grant: Pick<Grant, 'reach'>): GrantReach {
  return grant.reach ?? 'tool';
}

/** Does `grant` speak for `tool` on `serverId`? Caller and expiry are the grant book's to check. */
export function grantCovers(
  grant: Pick<Grant, 'serverId' | 'toolName' | 'reach' | 'includeDestructive'>,
  serverId: string,
  tool: Pick<Tool, 'name' | 'annotations'>,
): boolean {
  if (grant.serverId !== serverId) return false;
  switch (reachOf(grant)) {
    case 'tool':
      return grant.toolName === tool.name;
    case 'server':
      return grant.includeDestructive === true || claimsHarmless(tool.annotations);
    case 'server-read-only':
      return claimsReadOnly(tool.annotations);
  }
}
