import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkillUri, pathInSkill, resolveInSkill, skillNameProblem } from './skill-uri.js';

describe('skill URIs', () => {
  it('splits a SKILL.md URI into scheme, path, name and root', () => {
    expect(parseSkillUri('skill://acme/billing/refunds/SKILL.md')).toEqual({
      scheme: 'skill',
      skillPath: 'acme/billing/refunds',
      name: 'refunds',
      root: 'skill://acme/billing/refunds',
    });
    expect(parseSkillUri('github://owner/repo/skills/refunds/SKILL.md')?.name).toBe('refunds');
  });

  it.each([
    'skill://SKILL.md',
    'skill://a/skill.md',
    'skill://a/../b/SKILL.md',
    'skill://a//SKILL.md',
    'a/SKILL.md',
  ])('refuses %s', (uri) => {
    expect(parseSkillUri(uri)).toBeUndefined();
  });

  it('places files inside the skill and nowhere else', () => {
    const skill = 'skill://pdf/SKILL.md';
    expect(pathInSkill(skill, 'skill://pdf/references/FORMS.md')).toBe('references/FORMS.md');
    expect(pathInSkill(skill, 'skill://pdf-other/x.md')).toBeUndefined();
    expect(pathInSkill(skill, 'skill://pdf/../secret.md')).toBeUndefined();
    expect(pathInSkill(skill, 'skill://pdf/a//b')).toBeUndefined();
  });

  it('resolves relative references against the skill root', () => {
    const skill = 'skill://acme/billing/refunds/SKILL.md';
    expect(resolveInSkill(skill, 'references/GUIDE.md')).toBe(
      'skill://acme/billing/refunds/references/GUIDE.md',
    );
    expect(resolveInSkill(skill, './a/../b.md')).toBe('skill://acme/billing/refunds/b.md');
    expect(resolveInSkill(skill, '../other/SKILL.md')).toBeUndefined();
    expect(resolveInSkill(skill, '/etc/passwd')).toBeUndefined();
    expect(resolveInSkill(skill, 'skill://elsewhere/x.md')).toBeUndefined();
  });

  it('never resolves a reference outside the skill (any mix of segments)', () => {
    const segment = fc.constantFrom('..', '.', '', 'a', 'b', 'SKILL.md', '...');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const skill = 'skill://root/inner/SKILL.md';
        const resolved = resolveInSkill(skill, segments.join('/'));
        if (resolved !== undefined) expect(pathInSkill(skill, resolved)).toBeDefined();
      }),
    );
  });

  it('checks names by the Agent Skills rules', () => {
    expect(skillNameProblem('pdf-processing')).toBeUndefined();
    for (const bad of ['', 'PDF', '-a', 'a-', 'a--b', 'a_b', 'x'.repeat(65)])
      expect(skillNameProblem(bad)).toBeDefined();
  });
});
