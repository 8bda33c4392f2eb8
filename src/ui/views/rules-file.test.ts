import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '../../gate/index.js';
import { readRulesFile, rulesFile } from './rules-file.js';

const rule: PolicyRule = {
  id: 'abc',
  verdict: 'deny',
  server: 'files',
  tool: 'delete_*',
  name: 'No deletes',
  when: [{ path: 'path', op: 'under', value: '/etc' }],
  position: 2,
  createdAt: 1,
  updatedAt: 2,
};

describe('a rules file', () => {
  it('leaves out what belongs to one browser, and reads back', () => {
    const text = rulesFile([rule]);
    expect(text).not.toMatch(/"abc"|createdAt|position/);
    const read = readRulesFile(text);
    expect(read).toEqual({
      ok: true,
      rules: [{ verdict: 'deny', server: 'files', tool: 'delete_*', name: 'No deletes', when: rule.when }],
    });
  });

  it('says what is wrong, rule by rule, and imports nothing', () => {
    expect(readRulesFile('{"format": "toolgate-rules", "version": 1, "rules": [')).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^The file is not JSON/)],
    });
    expect(readRulesFile('{"format": "other", "rules": []}')).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/not a Toolgate rules file/)],
    });
    const mixed = readRulesFile(
      JSON.stringify([
        { verdict: 'allow', server: '*', tool: 'x' },
        { verdict: 'sometimes', server: '*', tool: 'x' },
        7,
      ]),
    );
    expect(mixed).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^Rule 2: verdict must be/), expect.stringMatching(/^Rule 3: /)],
    });
  });
});
