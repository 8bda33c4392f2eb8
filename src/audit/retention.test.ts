import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, parseRetention } from './retention.js';

describe('retention settings', () => {
  it('is on by default with a cap', () => {
    expect(DEFAULT_RETENTION.maxEntries).toBe(20_000);
  });

  it('reads back what the person chose, and nothing malformed', () => {
    expect(parseRetention({ maxEntries: 500 })).toEqual({ maxEntries: 500 });
    expect(parseRetention({ maxAgeMs: 86_400_000 })).toEqual({ maxAgeMs: 86_400_000 });
    expect(parseRetention(false)).toBe(false);
    for (const bad of [
      undefined,
      null,
      {},
      { maxEntries: 0 },
      { maxEntries: -5 },
      { maxEntries: 1.5 },
      'all',
      true,
    ])
      expect(parseRetention(bad), JSON.stringify(bad)).toBeUndefined();
    // Extra fields are dropped, not stored.
    expect(parseRetention({ maxEntries: 100, evil: '<img>' })).toEqual({ maxEntries: 100 });
  });
});
