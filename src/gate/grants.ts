/**
 * Remembered approvals ("allow for this session", "always allow this tool on this server"). A grant
 * is bound to (caller, server, tool name, definition hash): it never speaks for another caller, and
 * when the definition changes it stops applying and the person is shown what changed. Session grants
 * live in memory; "always" grants persist under `grant:<serverId>\u0000<toolName>\u0000<callerKey>`
 * (one per caller and tool: the newest approval replaces an older one).
 *
 * Grants stored before callers were recorded (`grant:<serverId>\u0000<toolName>`) read back as the
 * person's own: the narrowest reading, so an old approval never starts covering a site or an app.
 */

import type { Tool } from '../protocol/index.js';
import { callerIdentity, callerKey, parseCaller } from './caller.js';
import type { Grant } from './policy-types.js';
import { newRecordId, type SettingsStore } from './settings-store.js';
import type { Caller, PinnedTool } from './types.js';

const GRANT_PREFIX = 'grant:';

const PERSON: Caller = { kind: 'person' };

function grantKey(caller: Caller, serverId: string, toolName: string): string {
  return `${GRANT_PREFIX}${serverId}\u0000${toolName}\u0000${callerKey(caller)}`;
}

/** Where a grant from before callers were recorded was kept (read for the person only). */
function legacyGrantKey(serverId: string, toolName: string): string {
  return `${GRANT_PREFIX}${serverId}\u0000${toolName}`;
}

export class GrantBook {
  private readonly session = new Map<string, Grant>();

  constructor(private readonly store: SettingsStore) {}

  /** The grant that speaks for this caller and tool, session first; it may be for another definition. */
  async find(caller: Caller, serverId: string, toolName: string): Promise<Grant | undefined> {
    const key = grantKey(caller, serverId, toolName);
    const found = this.session.get(key) ?? parseGrant(await this.store.get(key));
    if (found || caller.kind !== 'person') return found;
    return parseGrant(await this.store.get(legacyGrantKey(serverId, toolName)));
  }

  /** Remembers an approval of exactly this definition, for this caller only. */
  async remember(
    caller: Caller,
    pinned: PinnedTool,
    scope: 'session' | 'always',
    now: number,
    decidedBy?: string,
  ): Promise<Grant> {
    const grant: Grant = {
      id: newRecordId(),
      caller: callerIdentity(caller),
      serverId: pinned.serverId,
      toolName: pinned.tool.name,
      definitionHash: pinned.definitionHash,
      // A plain copy: the diff shown after a change needs the definition the person saw.
      definition: structuredClone(pinned.tool) as Tool,
      scope,
      createdAt: now,
      ...(decidedBy ? { decidedBy } : {}),
    };
    const key = grantKey(grant.caller, grant.serverId, grant.toolName);
    if (scope === 'session') this.session.set(key, grant);
    else {
      // An "always" supersedes a session grant for the same tool.
      this.session.delete(key);
      await this.store.set(key, grant);
    }
    return grant;
  }

  /** Every grant, session ones first. */
  async list(): Promise<Grant[]> {
    const stored: Grant[] = [];
    for (const [, value] of await this.store.entries(GRANT_PREFIX)) {
      const grant = parseGrant(value);
      if (grant) stored.push(grant);
    }
    return [...this.session.values(), ...stored];
  }

  /** Revokes a grant by id; true when one was found. Takes effect for the next decision. */
  async revoke(id: string): Promise<boolean> {
    for (const [key, grant] of this.session)
      if (grant.id === id) {
        this.session.delete(key);
        return true;
      }
    for (const [key, value] of await this.store.entries(GRANT_PREFIX))
      if (parseGrant(value)?.id === id) {
        await this.store.del(key);
        return true;
      }
    return false;
  }
}

/**
 * Reads a stored grant; anything malformed is ignored (it then grants nothing). A grant without a
 * caller predates callers and reads as the person's own.
 */
function parseGrant(value: unknown): Grant | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const g = value as Partial<Grant>;
  const caller = g.caller === undefined ? PERSON : parseCaller(g.caller);
  if (!caller) return undefined;
  if (
    typeof g.id !== 'string' ||
    typeof g.serverId !== 'string' ||
    typeof g.toolName !== 'string' ||
    typeof g.definitionHash !== 'string' ||
    typeof g.definition !== 'object' ||
    g.definition === null ||
    (g.scope !== 'session' && g.scope !== 'always')
  )
    return undefined;
  return { ...(g as Grant), caller };
}
