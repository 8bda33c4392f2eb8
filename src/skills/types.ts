/**
 * The Skills extension's vocabulary (SEP-2640, `io.modelcontextprotocol/skills`): what a server
 * publishes about a skill (an entry: the SKILL.md URI, its frontmatter, a manifest of files with
 * SHA-256 digests and sizes) and how Toolgate names one skill across servers.
 */

import type { JsonObject } from '../protocol/index.js';

/** What every conforming host must accept per skill; Toolgate accepts exactly that much. */
export const SKILL_LIMITS = {
  /** Entries in a skill's `resources`, SKILL.md included. */
  resources: 512,
  /** Sum of `size` over a skill's `resources` (16 MiB). */
  totalBytes: 16 * 1024 * 1024,
} as const;

/** One file of a skill: its URI and the SHA-256 and length of its raw bytes. */
export interface SkillResource {
  uri: string;
  /** `sha256:` followed by 64 lowercase hex characters. */
  digest: string;
  size: number;
}

/** A skill's SKILL.md frontmatter, verbatim as JSON; `name` and `description` are always present. */
export interface SkillFrontmatter extends JsonObject {
  name: string;
  description: string;
}

/** A `skills/list` element or a `skills/get` result's `skill`, after shape checks. */
export interface SkillEntry {
  /** URI of the skill's SKILL.md. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** The complete manifest, or `dynamic` when the server cannot publish stable digests. */
  resources: readonly SkillResource[] | 'dynamic';
}

/**
 * A skill's identity across servers: the host-assigned server id plus the SKILL.md URI. Two servers
 * may both serve `skill://refunds/SKILL.md`; those are unrelated skills, so nothing is keyed on the
 * URI alone.
 */
export interface SkillIdentity {
  serverId: string;
  uri: string;
}

/** A stable string key for an identity (the NUL cannot occur in a server id the host chose or a URI). */
export function identityKey(identity: SkillIdentity): string {
  return `${identity.serverId}\u0000${identity.uri}`;
}
