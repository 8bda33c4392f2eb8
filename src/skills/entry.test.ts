import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHeldEntry, readSkillEntry } from './entry.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const good = () => ({
  uri: 'skill://pdf-processing/SKILL.md',
  frontmatter: { name: 'pdf-processing', description: 'PDFs', license: 'MIT' },
  resources: [
    { uri: 'skill://pdf-processing/SKILL.md', digest: DIGEST, size: 10 },
    { uri: 'skill://pdf-processing/references/FORMS.md', digest: DIGEST, size: 20 },
  ],
});

function problemsOf(value: unknown): string[] {
  const read = readSkillEntry(value);
  return isHeldEntry(read) ? [] : read.problems;
}

describe('readSkillEntry', () => {
  it('holds a well-formed entry, frontmatter verbatim', () => {
    const read = readSkillEntry(good());
    expect(isHeldEntry(read) && read.entry.frontmatter.license).toBe('MIT');
    expect(isHeldEntry(readSkillEntry({ ...good(), resources: 'dynamic' }))).toBe(true);
  });

  it.each([
    ['no resources', (e: Record<string, unknown>) => delete e.resources, 'no resources'],
    ['resources of another kind', (e: Record<string, unknown>) => (e.resources = {}), 'neither a manifest'],
    [
      'a name unlike the URI',
      (e: { frontmatter: { name: string } }) => (e.frontmatter.name = 'other'),
      'last segment',
    ],
    [
      'no description',
      (e: { frontmatter: Record<string, unknown> }) => delete e.frontmatter.description,
      'no description',
    ],
    [
      'an upper-case digest',
      (e: { resources: { digest: string }[] }) => (e.resources[1]!.digest = DIGEST.toUpperCase()),
      'sha256:<64',
    ],
    ['a negative size', (e: { resources: { size: number }[] }) => (e.resources[1]!.size = -1), 'no size'],
    [
      'a file outside the skill',
      (e: { resources: { uri: string }[] }) => (e.resources[1]!.uri = 'skill://other/x.md'),
      'not inside',
    ],
    [
      'a file listed twice',
      (e: { resources: unknown[] }) => e.resources.push(e.resources[1]),
      'listed twice',
    ],
    [
      'no SKILL.md in the manifest',
      (e: { resources: unknown[] }) => e.resources.shift(),
      'does not list the SKILL.md',
    ],
    [
      'a URI that is no SKILL.md',
      (e: { uri: string }) => (e.uri = 'skill://pdf-processing/README.md'),
      'not the URI of a SKILL.md',
    ],
  ])('rejects %s', (_, mutate, expected) => {
    const entry = good();
    (mutate as (e: unknown) => void)(entry);
    expect(problemsOf(entry).join('; ')).toContain(expected);
  });

  it('declines skills past the per-skill limits before fetching anything', () => {
    const many = good();
    for (let i = 0; i < 511; i++)
      many.resources.push({ uri: `skill://pdf-processing/f${i}`, digest: DIGEST, size: 1 });
    expect(problemsOf(many).join()).toContain('up to 512');
    const big = good();
    big.resources[1]!.size = 16 * 1024 * 1024;
    expect(problemsOf(big).join()).toContain('16 MiB');
    const atLimit = good();
    atLimit.resources[1]!.size = 16 * 1024 * 1024 - 10;
    expect(problemsOf(atLimit)).toEqual([]);
  });

  it('warns about, but holds, a name against the naming rules', () => {
    const read = readSkillEntry({
      ...good(),
      uri: 'skill://PDF/SKILL.md',
      frontmatter: { name: 'PDF', description: 'x' },
      resources: [{ uri: 'skill://PDF/SKILL.md', digest: DIGEST, size: 1 }],
    });
    expect(isHeldEntry(read) && read.warnings.join()).toContain('naming rules');
  });

  it('never holds an entry whose files stray outside the skill or whose digests are malformed', () => {
    const file = fc.record({
      uri: fc.oneof(
        fc.constantFrom(
          'skill://s/a',
          'skill://s/b/c',
          'skill://t/a',
          'skill://s/../x',
          'skill://s/SKILL.md',
        ),
      ),
      digest: fc.oneof(fc.constant(DIGEST), fc.string()),
      size: fc.oneof(fc.nat(), fc.integer({ min: -5, max: -1 }), fc.double()),
    });
    fc.assert(
      fc.property(fc.array(file, { maxLength: 6 }), (resources) => {
        const read = readSkillEntry({
          uri: 'skill://s/SKILL.md',
          frontmatter: { name: 's', description: 'd' },
          resources,
        });
        if (!isHeldEntry(read)) return;
        const files = read.entry.resources as { uri: string; digest: string; size: number }[];
        expect(files.some((f) => f.uri === 'skill://s/SKILL.md')).toBe(true);
        for (const f of files) {
          expect(f.uri.startsWith('skill://s/') && !f.uri.includes('..')).toBe(true);
          expect(f.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
          expect(Number.isSafeInteger(f.size) && f.size >= 0).toBe(true);
        }
      }),
    );
  });
});
