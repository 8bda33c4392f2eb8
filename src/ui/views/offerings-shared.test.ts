import { describe, expect, it } from 'vitest';
import { ago, matches } from './offerings-shared.js';

describe('the offerings tabs’ search and times', () => {
  it('matches when every word is in one of the texts, in any case', () => {
    expect(matches('dynamic BLOB', 'Dynamic Blob Resource', 'demo://resource/dynamic/blob/{id}')).toBe(true);
    expect(matches('dynamic text', 'Dynamic Blob Resource', undefined)).toBe(false);
    expect(matches('  ', 'anything')).toBe(true);
  });

  it('says when an update arrived in words', () => {
    const now = 10_000_000;
    expect(ago(now - 5_000, now)).toBe('just now');
    expect(ago(now - 60_000, now)).toBe('1 minute ago');
    expect(ago(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(ago(now - 2 * 3_600_000, now)).toBe('2 hours ago');
  });
});
