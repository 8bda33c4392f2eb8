import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RECORDED_BYTES, truncateForAudit } from './truncation.js';

describe('truncateForAudit', () => {
  it('keeps small values as they are', async () => {
    const value = { content: [{ type: 'text', text: 'short' }] };
    expect(await truncateForAudit(value)).toBe(value);
  });

  it('replaces large values with size, hash and a preview', async () => {
    const big = { text: 'é'.repeat(DEFAULT_MAX_RECORDED_BYTES) };
    const stored = (await truncateForAudit(big)) as {
      truncated: boolean;
      originalBytes: number;
      sha256: string;
      preview: string;
    };
    expect(stored.truncated).toBe(true);
    // é is two bytes in UTF-8: the size is counted in bytes, not characters.
    expect(stored.originalBytes).toBe(2 * DEFAULT_MAX_RECORDED_BYTES + '{"text":""}'.length);
    // The hash is of the full canonical JSON (one key: the same text as JSON.stringify), computed
    // here by another implementation, so a copy kept elsewhere can be matched to the entry.
    const fullText = JSON.stringify(big);
    expect(stored.sha256).toBe(createHash('sha256').update(fullText, 'utf8').digest('hex'));
    expect(stored.preview.startsWith('{"text":"éé')).toBe(true);
    expect(stored.preview.length).toBeLessThanOrEqual(1024);
  });
});
