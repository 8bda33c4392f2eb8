/**
 * Skill URIs: `<scheme>://<skill-path>/SKILL.md`, files at `<scheme>://<skill-path>/<file-path>`.
 * Pure string work on purpose: the authority of a skill URI carries no meaning and is never
 * resolved (the spec forbids DNS or network resolution), so nothing here goes through `URL`.
 */

const SKILL_FILE = 'SKILL.md';
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** The parts of a SKILL.md URI, or undefined when `uri` is not one. */
interface SkillUriParts {
  /** `skill`, `github`, … (as written). */
  scheme: string;
  /** The skill directory's path: `acme/billing/refunds`. */
  skillPath: string;
  /** The last segment of the skill path: what the frontmatter `name` must equal. */
  name: string;
  /** The skill's root directory resource: the URI without `/SKILL.md`. */
  root: string;
}

/** Splits a SKILL.md URI; undefined when it does not end in `/SKILL.md` or has no skill path. */
export function parseSkillUri(uri: string): SkillUriParts | undefined {
  const scheme = SCHEME.exec(uri)?.[0];
  if (!scheme || !uri.endsWith(`/${SKILL_FILE}`)) return undefined;
  const skillPath = uri.slice(scheme.length, -(SKILL_FILE.length + 1));
  const segments = skillPath.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return {
    scheme: scheme.slice(0, -3),
    skillPath,
    name: segments.at(-1)!,
    root: uri.slice(0, -(SKILL_FILE.length + 1)),
  };
}

/** True for a URI that names some skill's SKILL.md (a nested skill's, inside a manifest). */
export function isSkillFileUri(uri: string): boolean {
  return parseSkillUri(uri) !== undefined;
}

/**
 * The path of `fileUri` relative to the skill's root (`references/FORMS.md`), or undefined when the
 * file is not inside the skill's directory (or smuggles `.` / `..` segments to look as if it were).
 */
export function pathInSkill(skillUri: string, fileUri: string): string | undefined {
  const parts = parseSkillUri(skillUri);
  if (!parts || !fileUri.startsWith(`${parts.root}/`)) return undefined;
  const relative = fileUri.slice(parts.root.length + 1);
  const segments = relative.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return relative;
}

/**
 * Resolves a relative reference in a skill (`references/GUIDE.md`, `./a/../b.md`) against the skill's
 * root, as a filesystem path would; undefined when it climbs out of the skill or is absolute.
 */
export function resolveInSkill(skillUri: string, reference: string): string | undefined {
  const parts = parseSkillUri(skillUri);
  if (!parts || reference === '' || reference.startsWith('/') || SCHEME.test(reference)) return undefined;
  const kept: string[] = [];
  for (const segment of reference.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (kept.length === 0) return undefined;
      kept.pop();
    } else kept.push(segment);
  }
  return kept.length === 0 ? undefined : `${parts.root}/${kept.join('/')}`;
}

/** Agent Skills naming rules: 1-64 of a-z, 0-9 and `-`, no leading, trailing or doubled hyphen. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return `"${name.slice(0, 80)}" is not 1 to 64 characters long`;
  if (!/^[a-z0-9-]+$/.test(name)) return `"${name}" uses characters other than a-z, 0-9 and "-"`;
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--'))
    return `"${name}" starts or ends with "-" or has "--"`;
  return undefined;
}
