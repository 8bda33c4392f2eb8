/**
 * The host's skill registry, per server and across servers: which entries a server published, how
 * each stands with the person, which skills nest in which, and the name a model uses for each.
 *
 * Names: a skill's `name` is a label, not an identity. A model reaches a skill only by its
 * qualified name, `<server id>::<skill path>` (scheme included when not `skill://`), made from the
 * host-assigned server id and the skill's URI. Two skills never share one (ties get `~2`, `~3` in
 * a fixed order), a local skill's name has no `::`, so an MCP-served skill cannot shadow another
 * origin's skill; collisions on the plain name are shown to the person.
 */

import type { ApprovalState } from './approvals.js';
import type { RejectedEntry } from './entry.js';
import { isSkillFileUri, parseSkillUri, pathInSkill } from './skill-uri.js';
import { identityKey, type SkillEntry, type SkillIdentity } from './types.js';

/** One skill as the panel and the host API see it. */
export interface SkillRecord {
  identity: SkillIdentity;
  entry: SkillEntry;
  /** Shown, never hidden: a name against the naming rules. */
  warnings: string[];
  manifestDigest: string;
  approval: ApprovalState;
  /** SKILL.md URIs inside this skill's manifest besides its own: nested skills (their own consent). */
  nested: string[];
  /** The listed skill this one is nested in, when there is one. */
  enclosing?: string | undefined;
  /** False when it was reached by URI (`skills/get`) rather than listed. */
  listed: boolean;
  /** The last verification failure, until the skill is refreshed or approved again. */
  failure?: string | undefined;
  /** True while a model acts on it (its SKILL.md was loaded under the entry held now). */
  acting: boolean;
  /** The one name a model uses for it. */
  qualifiedName: string;
  /** Other servers ("label (id)") with a skill of the same plain name. */
  sameNameElsewhere: string[];
}

/** One server's skills. */
export interface ServerSkills {
  serverId: string;
  label: string;
  /** Whether the server declared `io.modelcontextprotocol/skills` (undefined: not connected). */
  declared?: boolean | undefined;
  directoryRead: boolean;
  status: 'not-listed' | 'listing' | 'listed' | 'failed';
  error?: string;
  skills: SkillRecord[];
  rejected: RejectedEntry[];
  /** False when the listing stopped early: a partial listing never proves a skill absent. */
  complete: boolean;
}

/** The skill path a qualified name is made of: `acme/refunds`, or `github://o/r/refunds`. */
function qualifiedPath(uri: string): string {
  const parts = parseSkillUri(uri);
  if (!parts) return uri;
  return parts.scheme === 'skill' ? parts.skillPath : `${parts.scheme}://${parts.skillPath}`;
}

/**
 * Fills in what depends on every server at once: qualified names (unique), plain-name collisions
 * across servers, and nesting between a server's own skills. Mutates the records it is given.
 */
export function linkRegistry(servers: readonly ServerSkills[]): void {
  const byName = new Map<string, SkillRecord[]>();
  const byPlainName = new Map<string, Set<string>>();
  for (const server of servers)
    for (const record of server.skills) {
      const base = `${record.identity.serverId}::${qualifiedPath(record.identity.uri)}`;
      byName.set(base, [...(byName.get(base) ?? []), record]);
      const plain = record.entry.frontmatter.name;
      // Told apart by the host-assigned id: two servers may well report the same name.
      byPlainName.set(plain, (byPlainName.get(plain) ?? new Set()).add(server.serverId));
      record.nested = nestedIn(record.entry);
      record.enclosing = server.skills.find(
        (other) => other !== record && pathInSkill(other.identity.uri, record.identity.uri) !== undefined,
      )?.identity.uri;
    }
  for (const [base, records] of byName) {
    const ordered = [...records].sort((a, b) => (identityKey(a.identity) < identityKey(b.identity) ? -1 : 1));
    ordered.forEach((record, index) => {
      record.qualifiedName = index === 0 ? base : `${base}~${index + 1}`;
    });
  }
  const labels = new Map(servers.map((server) => [server.serverId, `${server.label} (${server.serverId})`]));
  for (const server of servers)
    for (const record of server.skills)
      record.sameNameElsewhere = [...(byPlainName.get(record.entry.frontmatter.name) ?? [])]
        .filter((id) => id !== server.serverId)
        .map((id) => labels.get(id) ?? id);
}

/** SKILL.md files in an entry's manifest other than its own. */
function nestedIn(entry: SkillEntry): string[] {
  if (entry.resources === 'dynamic') return [];
  return entry.resources.map((file) => file.uri).filter((uri) => uri !== entry.uri && isSkillFileUri(uri));
}
