import { describe, expect, it } from 'vitest';
import { rerunDraft } from './rerun-draft.js';

describe('rerunDraft', () => {
  it('keeps what is plain and leaves out, by path, what was or would be redacted', () => {
    const stored = {
      query: 'weather',
      api_key: '[redacted: named like a secret]',
      nested: { password: 'hunter2', depth: 3 },
      headers: [{ name: 'Authorization', value: 'Bearer abc.def.ghi' }, 'plain'],
      url: 'https://user:pw@example.com/x',
    };
    const { draft, toFill } = rerunDraft(stored);
    expect(draft).toEqual({
      query: 'weather',
      nested: { depth: 3 },
      headers: [{ name: 'Authorization' }, 'plain'],
    });
    expect(toFill).toEqual(['api_key', 'nested.password', 'headers[0].value', 'url']);
  });

  it('leaves the given arguments untouched', () => {
    const args = { secret: 'x' };
    rerunDraft(args);
    expect(args).toEqual({ secret: 'x' });
  });
});
