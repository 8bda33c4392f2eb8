/**
 * Reads skill entries from `skills/list` and `skills/get` answers. An entry is what the person
 * approves and what every later read is verified against, so it is checked before anything else
 * uses it: the shape the spec requires (an entry without a valid `resources` must not be loaded),
 * a complete manifest with well-formed digests and sizes inside the skill's directory, and the
 * per-skill limits, all from the entry alone, before a single file is fetched.
 */

import { isJsonObject, type JsonObject } from '../protocol/index.js';
import { parseSkillUri, pathInSkill, skillNameProblem } from './skill-uri.js';
import { SKILL_LIMITS, type SkillEntry, type SkillFrontmatter, type SkillResource } from './types.js';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** An entry Toolgate can hold, with what a person should know about it. */
export interface ReadEntry {
  entry: SkillEntry;
  /** Things that do not stop approval (a name against the naming rules): shown, never hidden. */
  warnings: string[];
}

/** An entry Toolgate will not hold: why, in sentences, and the URI when it had one. */
export interface RejectedEntry {
  uri?: string;
  problems: string[];
}

/** Checks one entry; either it can be held (maybe with warnings), or it is rejected with reasons. */
export function readSkillEntry(value: unknown): ReadEntry | RejectedEntry {
  if (!isJsonObject(value)) return { problems: ['the entry is not an object'] };
  const uri = typeof value.uri === 'string' ? value.uri : undefined;
  const problems: string[] = [];
  const warnings: string[] = [];
  const parts = uri === undefined ? undefined : parseSkillUri(uri);
  if (uri === undefined) problems.push('the entry has no uri');
  else if (!parts) problems.push(`${short(uri)} is not the URI of a SKILL.md`);

  const frontmatter = value.frontmatter;
  if (!isJsonObject(frontmatter)) problems.push('the entry has no frontmatter object');
  else {
    if (typeof frontmatter.name !== 'string' || frontmatter.name === '')
      problems.push('the frontmatter has no name');
    if (typeof frontmatter.description !== 'string') problems.push('the frontmatter has no description');
    if (parts && typeof frontmatter.name === 'string' && frontmatter.name !== parts.name)
      problems.push(
        `the frontmatter name "${short(frontmatter.name)}" is not the URI's last segment "${parts.name}"`,
      );
    const nameProblem = parts ? skillNameProblem(parts.name) : undefined;
    if (nameProblem) warnings.push(`the skill name breaks the Agent Skills naming rules: ${nameProblem}`);
  }

  const resources = readResources(value.resources, uri, problems);
  if (problems.length > 0 || !uri || !resources) return { ...(uri ? { uri } : {}), problems };
  return { entry: { uri, frontmatter: frontmatter as SkillFrontmatter, resources }, warnings };
}

/** True when `readSkillEntry` accepted the entry. */
export function isHeldEntry(read: ReadEntry | RejectedEntry): read is ReadEntry {
  return 'entry' in read;
}

function readResources(
  value: unknown,
  skillUri: string | undefined,
  problems: string[],
): SkillEntry['resources'] | undefined {
  if (value === 'dynamic') return 'dynamic';
  if (!Array.isArray(value)) {
    problems.push(
      value === undefined
        ? 'the entry has no resources (neither a manifest nor "dynamic")'
        : 'the entry\'s resources are neither a manifest nor "dynamic"',
    );
    return undefined;
  }
  if (value.length > SKILL_LIMITS.resources) {
    problems.push(
      `the skill lists ${value.length} files; Toolgate accepts up to ${SKILL_LIMITS.resources} per skill`,
    );
    return undefined;
  }
  const seen = new Set<string>();
  const files: SkillResource[] = [];
  let total = 0;
  value.forEach((item: unknown, index) => {
    const where = `resources[${index}]`;
    if (!isJsonObject(item) || typeof item.uri !== 'string') {
      problems.push(`${where} has no uri`);
      return;
    }
    const { uri, digest, size } = item as JsonObject & { uri: string };
    if (seen.has(uri)) problems.push(`${short(uri)} is listed twice`);
    seen.add(uri);
    if (skillUri && uri !== skillUri && pathInSkill(skillUri, uri) === undefined)
      problems.push(`${short(uri)} is not inside the skill's directory`);
    if (typeof digest !== 'string' || !DIGEST.test(digest))
      problems.push(`${short(uri)} has no digest of the form sha256:<64 lowercase hex>`);
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
      problems.push(`${short(uri)} has no size in bytes`);
    else total += size;
    if (typeof digest === 'string' && typeof size === 'number') files.push({ uri, digest, size });
  });
  if (skillUri && !seen.has(skillUri)) problems.push('the manifest does not list the SKILL.md itself');
  if (total > SKILL_LIMITS.totalBytes)
    problems.push(
      `the skill's files add up to ${total} bytes; Toolgate accepts up to ${SKILL_LIMITS.totalBytes} (16 MiB) per skill`,
    );
  return files;
}

/** Server text in a message: one line, bounded. */
function short(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}
