/**
 * Remembered approvals. A grant is bound to its caller and server, and reaches one tool (the
 * classic "allow for this session" / "always allow this tool") or the server's tools (every tool
 * that does not destroy things, unless the person ticked that too; or its read-only tools): see
 * grant-reach.ts. It never speaks for another caller; when a covered definition changes, the change
 * is weighed (definition-weight.ts) by the policy. Lifetimes: 'session' lives in memory (it ends
 * when the page does), 'hour' and 'always' persist, an hour's until `expiresAt`.
 *
 * Keys: `grant:<serverId>\u0000<toolName>\u0000<callerKey>` for one tool (one per caller and tool:
 * the newest approval replaces an older one), `grant:<serverId>\u0000\u0001<reach>\u0000<callerKey>`
 * for a server-wide reach (one per caller, server and reach).
 *
 * Grants stored before callers were recorded (`grant:<serverId>\u0000<toolName>`) read back as the
 * person's own: the narrowest reading, so an old approval never starts covering a site or an app.
 */

import type { Tool } from '../protocol/index.js';
import { callerIdentity, callerKey, parseCaller } from './caller.js';
import { reachOf } from './grant-reach.js';
import { EVERY_TOOL, type Grant, type GrantReachChoice } from './policy-types.js';
import { newRecordId, type SettingsStore } from './settings-store.js';
import type { Caller, PinnedTool } from './types.js';

const GRANT_PREFIX = 'grant:';
const HOUR_MS = 60 * 60_000;

const PERSON: Caller = { kind: 'person' };

function grantKey(caller: Caller, serverId: string, toolName: string): string {
  return `${GRANT_PREFIX}${serverId}\u0000${toolName}\u0000${callerKey(caller)}`;
}

function keyOf(grant: Grant): string {
  const reach = reachOf(grant);
  return grantKey(grant.caller, grant.serverId, reach === 'tool' ? grant.toolName : `\u0001${reach}`);
}

/** Where a grant from before callers were recorded was kept (read for the person only). */
function legacyGrantKey(serverId: string, toolName: string): string {
  return `${GRANT_PREFIX}${serverId}\u0000${toolName}`;
}

export class GrantBook {
  private readonly session = new Map<string, Grant>();

  constructor(
    private readonly store: SettingsStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The one-tool grant that speaks for this caller and tool, session first; it may be for another definition. */
  async find(caller: Caller, serverId: string, toolName: string): Promise<Grant | undefined> {
    const key = grantKey(caller, serverId, toolName);
    const found = this.live(this.session.get(key) ?? parseGrant(await this.store.get(key)));
    if (found || caller.kind !== 'person') return found;
    return this.live(parseGrant(await this.store.get(legacyGrantKey(serverId, toolName))));
  }

  /** This caller's server-wide grants on this server that have not ended, session ones first. */
  async findServerWide(caller: Caller, serverId: string): Promise<Grant[]> {
    const found: Grant[] = [];
    for (const reach of ['server', 'server-read-only'] as const) {
      const key = grantKey(caller, serverId, `\u0001${reach}`);
      for (const grant of [this.session.get(key), parseGrant(await this.store.get(key))]) {
        const live = this.live(grant);
        if (live) found.push(live);
      }
    }
    return found;
  }

  /** Remembers an approval for this caller: of this definition, or of the tools `choice` reaches. */
  async remember(
    caller: Caller,
    pinned: PinnedTool,
    scope: 'session' | 'hour' | 'always',
    now: number,
    decidedBy?: string,
    choice: GrantReachChoice = { reach: 'tool' },
  ): Promise<Grant> {
    const serverWide = choice.reach !== 'tool';
    // A plain copy: the diff shown after a change needs the definition the person saw.
    const definition = structuredClone(pinned.tool) as Tool;
    const grant: Grant = {
      id: newRecordId(),
      caller: callerIdentity(caller),
      serverId: pinned.serverId,
      toolName: serverWide ? EVERY_TOOL : pinned.tool.name,
      ...(serverWide ? { reach: choice.reach } : {}),
      ...(choice.reach === 'server' && choice.includeDestructive ? { includeDestructive: true } : {}),
      definitionHash: pinned.definitionHash,
      definition,
      ...(serverWide
        ? { covered: { [pinned.tool.name]: { definitionHash: pinned.definitionHash, definition } } }
        : {}),
      scope,
      ...(scope === 'hour' ? { expiresAt: now + HOUR_MS } : {}),
      createdAt: now,
      ...(decidedBy ? { decidedBy } : {}),
    };
    const key = keyOf(grant);
    if (scope === 'session') this.session.set(key, grant);
    else {
      // A lasting grant supersedes a session grant for the same key.
      this.session.delete(key);
      await this.store.set(key, grant);
    }
    return grant;
  }

  /**
   * A server-wide grant covers a tool for the first time: keep its definition, so a later change
   * to it is weighed against what the grant first covered.
   */
  async noteCovered(grant: Grant, pinned: PinnedTool): Promise<void> {
    const definition = structuredClone(pinned.tool) as Tool;
    grant.covered = {
      ...grant.covered,
      [pinned.tool.name]: { definitionHash: pinned.definitionHash, definition },
    };
    if (grant.scope !== 'session') await this.store.set(keyOf(grant), grant);
  }

  /** Every grant that has not ended, session ones first; ended ones are dropped on the way. */
  async list(): Promise<Grant[]> {
    const stored: Grant[] = [];
    for (const [key, value] of await this.store.entries(GRANT_PREFIX)) {
      const grant = parseGrant(value);
      if (grant && this.live(grant)) stored.push(grant);
      else if (grant) await this.store.del(key);
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

  /** The grant, unless its time is up. */
  private live(grant: Grant | undefined): Grant | undefined {
    if (grant?.expiresAt !== undefined && grant.expiresAt <= this.now()) return undefined;
    return grant;
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
    (g.scope !== 'session' && g.scope !== 'always' && g.scope !== 'hour') ||
    // A time-limited grant without its end would never end: it grants nothing.
    (g.scope === 'hour' && typeof g.expiresAt !== 'number') ||
    (g.reach !== undefined && g.reach !== 'tool' && g.reach !== 'server' && g.reach !== 'server-read-only')
  )
    return undefined;
  return { ...(g as Grant), caller };
}
