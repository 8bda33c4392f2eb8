import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memorySettingsStore } from '../gate/index.js';
import { approvalState, SkillApprovalBook } from './approvals.js';
import { diffEntries, manifestDigest } from './manifest.js';
import type { SkillEntry } from './types.js';

const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
const files = fc.uniqueArray(
  fc.record({ path: fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,6})?\.md$/), digest: hex, size: fc.nat(1000) }),
  { selector: (file) => file.path, maxLength: 6 },
);
const entryOf = (list: { path: string; digest: string; size: number }[], description = 'd'): SkillEntry => ({
  uri: 'skill://s/SKILL.md',
  frontmatter: { name: 's', description },
  resources: [
    { uri: 'skill://s/SKILL.md', digest: `sha256:${'0'.repeat(64)}`, size: 1 },
    ...list.map((file) => ({
      uri: `skill://s/${file.path}`,
      digest: `sha256:${file.digest}`,
      size: file.size,
    })),
  ],
});

describe('manifest digests and diffs', () => {
  it('the digest ignores the order of the manifest', () => {
    fc.assert(
      fc.property(files, (list) => {
        expect(manifestDigest(entryOf([...list].reverse()))).toBe(manifestDigest(entryOf(list)));
      }),
    );
  });

  it('any rotated, added or removed file changes the digest, and the diff names it', () => {
    fc.assert(
      fc.property(files, fc.nat(), hex, (list, pick, digest) => {
        fc.pre(list.length > 0);
        const index = pick % list.length;
        const target = list[index]!;
        fc.pre(target.digest !== digest);
        const rotated = list.map((file, at) => (at === index ? { ...file, digest } : file));
        const removed = list.filter((_, at) => at !== index);
        for (const changed of [rotated, removed]) {
          expect(manifestDigest(entryOf(changed))).not.toBe(manifestDigest(entryOf(list)));
          expect(diffEntries(entryOf(list), entryOf(changed)).map((line) => line.field)).toEqual([
            `file ${target.path}`,
          ]);
        }
        expect(diffEntries(entryOf(removed), entryOf(list))[0]).toMatchObject({
          field: `file ${target.path}`,
        });
      }),
    );
  });

  it('a changed frontmatter field changes the digest and shows hidden characters', () => {
    const before = entryOf([]);
    const after = entryOf([], 'd\u200b');
    expect(manifestDigest(after)).not.toBe(manifestDigest(before));
    const [line] = diffEntries(before, after);
    expect(line?.field).toBe('frontmatter description');
    expect(line?.after).not.toBe('d\u200b');
  });
});

describe('skill approvals', () => {
  it('bind to the manifest: a change revokes them with the diff, keyed by server and URI', async () => {
    const book = new SkillApprovalBook(memorySettingsStore());
    const entry = entryOf([{ path: 'a.md', digest: 'a'.repeat(64), size: 3 }]);
    const here = { serverId: 'one', uri: entry.uri };
    const approval = await book.approve(here, entry, { allowedTools: false, now: 1 });
    expect(approvalState(entry, await book.find(here)).state).toBe('approved');
    // The same URI on another server is another skill.
    expect(await book.find({ serverId: 'two', uri: entry.uri })).toBeUndefined();
    const changed = entryOf([{ path: 'a.md', digest: 'b'.repeat(64), size: 3 }]);
    const state = approvalState(changed, approval);
    expect(state.state).toBe('changed');
    expect(state.state === 'changed' && state.changes.map((line) => line.field)).toEqual(['file a.md']);
    expect(approvalState({ ...entry, resources: 'dynamic' }, approval).state).toBe('dynamic');
    await expect(
      book.approve(here, { ...entry, resources: 'dynamic' }, { allowedTools: false, now: 2 }),
    ).rejects.toThrow('cannot bind');
    expect(await book.revoke(here)).toBe(true);
    expect(await book.find(here)).toBeUndefined();
  });

  it('a stored approval that does not parse approves nothing', async () => {
    const store = memorySettingsStore();
    await store.set('skill:one\u0000skill://s/SKILL.md', {
      id: 'x',
      serverId: 'one',
      uri: 'skill://s/SKILL.md',
    });
    expect(
      await new SkillApprovalBook(store).find({ serverId: 'one', uri: 'skill://s/SKILL.md' }),
    ).toBeUndefined();
  });
});
