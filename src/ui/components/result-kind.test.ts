import { describe, expect, it } from 'vitest';
import { resultKind } from './call-result.js';

describe('resultKind', () => {
  it("marks a tool's isError as an error and any other result as a success", () => {
    expect(resultKind({ result: { content: [], isError: true } })).toBe('error');
    expect(resultKind({ result: { content: [] } })).toBe('succeeded');
  });

  it('marks a call that did not complete by why: denied, cancelled, refused before sending, or failed', () => {
    expect(resultKind({ errorKind: 'denied' })).toBe('denied');
    expect(resultKind({ errorKind: 'cancelled' })).toBe('cancelled');
    expect(resultKind({ errorKind: 'invalid-arguments' })).toBe('not-sent');
    for (const kind of ['protocol', 'invalid-response', 'timeout', 'transport', undefined])
      expect(resultKind({ errorKind: kind })).toBe('failed');
  });
});
