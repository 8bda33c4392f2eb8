import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from './redaction.js';
import { DEFAULT_MAX_RECORDED_BYTES, truncateForAudit } from './truncation.js';

describe('redactSecrets', () => {
  it('replaces secret-keyed values at any depth and says where, leaving the input untouched', () => {
    const args = {
      path: '/tmp/x',
      apiKey: 'sk-123',
      headers: { Authorization: 'Bearer abc', 'X-Trace': 't1' },
      items: [{ token: 'tok', name: 'a' }],
      db_password: 'hunter2',
      sessionId: null,
    };
    const { value, paths } = redactSecrets(args);
    expect(value).toEqual({
      path: '/tmp/x',
      apiKey: REDACTED,
      headers: { Authorization: REDACTED, 'X-Trace': 't1' },
      items: [{ token: REDACTED, name: 'a' }],
      db_password: REDACTED,
      sessionId: null,
    });
    expect(paths).toEqual(['apiKey', 'headers.Authorization', 'items[0].token', 'db_password']);
    expect(args.apiKey).toBe('sk-123');
  });

  it('redacts whole subtrees under a secret key, and honours custom rules', () => {
    expect(redactSecrets({ credentials: { user: 'u', pass: 'p' } }).value).toEqual({ credentials: REDACTED });
    expect(redactSecrets({ ssn: '123', apiKey: 'k' }, [/^ssn$/]).value).toEqual({
      ssn: REDACTED,
      apiKey: 'k',
    });
  });
});

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
    expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.preview.startsWith('{"text":"éé')).toBe(true);
    expect(stored.preview.length).toBeLessThanOrEqual(1024);
  });
});
