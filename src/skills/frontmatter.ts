/**
 * SKILL.md frontmatter on the host side: split the file into its YAML frontmatter and body, read
 * the YAML (the strict subset in yaml-subset.ts), and compare it field by field with the entry's
 * `frontmatter`, so that what the person approved from the entry is what the model receives.
 */

import { isJsonObject, type JsonObject } from '../protocol/index.js';
import { FrontmatterError, parseYamlSubset } from './yaml-subset.js';

export { FrontmatterError } from './yaml-subset.js';

/** A SKILL.md split in two. */
export interface SkillDocument {
  frontmatter: JsonObject;
  /** The markdown after the closing `---` line. */
  body: string;
}

/**
 * Reads a SKILL.md: it must begin with a `---` line (a byte order mark before it is allowed), and
 * the frontmatter ends at the next `---` line. Throws FrontmatterError with a line number.
 */
export function readSkillDocument(markdown: string): SkillDocument {
  const text = (markdown.startsWith('\uFEFF') ? markdown.slice(1) : markdown).replace(/\r\n/g, '\n');
  const lines = text.split('\n');
  if (!/^---[ \t]*$/.test(lines[0] ?? ''))
    throw new FrontmatterError('SKILL.md must begin with a "---" line', 1);
  const close = lines.findIndex((line, index) => index > 0 && /^---[ \t]*$/.test(line));
  if (close === -1) throw new FrontmatterError('the frontmatter has no closing "---" line');
  return {
    frontmatter: parseYamlSubset(lines.slice(1, close).join('\n'), 2),
    body: lines.slice(close + 1).join('\n'),
  };
}

/**
 * The fields whose values differ between the file's frontmatter and the entry's (present in one
 * only, or unequal as JSON values), sorted. Empty when they are identical in content.
 */
export function frontmatterDifferences(file: JsonObject, entry: JsonObject): string[] {
  const fields = new Set([...Object.keys(file), ...Object.keys(entry)]);
  return [...fields]
    .filter(
      (field) =>
        !(Object.hasOwn(file, field) && Object.hasOwn(entry, field) && sameJson(file[field], entry[field])),
    )
    .sort();
}

/** Deep equality of JSON values: object key order does not matter, array order does. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}
