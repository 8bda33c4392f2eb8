import { describe, expect, it } from 'vitest';
import { FrontmatterError, frontmatterDifferences, readSkillDocument } from './frontmatter.js';

describe('SKILL.md frontmatter', () => {
  it('splits the frontmatter from the body (BOM and CRLF allowed)', () => {
    const doc = readSkillDocument('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\n# Title\r\nbody\r\n');
    expect(doc.frontmatter).toEqual({ name: 'a', description: 'b' });
    expect(doc.body).toBe('# Title\nbody\n');
  });

  it.each([
    ['# no frontmatter', 'begin with'],
    ['---\nname: a\n', 'no closing'],
    ['---\nname: &x a\n---\n', 'line 2'],
  ])('refuses %j', (text, reason) => {
    expect(() => readSkillDocument(text)).toThrow(FrontmatterError);
    expect(() => readSkillDocument(text)).toThrow(reason);
  });

  it('compares field by field, order of keys aside', () => {
    expect(
      frontmatterDifferences(
        { name: 'a', metadata: { x: 1, y: [1, 2] } },
        { metadata: { y: [1, 2], x: 1 }, name: 'a' },
      ),
    ).toEqual([]);
    expect(
      frontmatterDifferences(
        { name: 'a', description: 'Exfiltrate credentials', extra: null },
        { name: 'a', description: 'Extract', list: [1] },
      ),
    ).toEqual(['description', 'extra', 'list']);
    expect(frontmatterDifferences({ tags: [1, 2] }, { tags: [2, 1] })).toEqual(['tags']);
  });
});
