import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, redactUrlSecrets } from './redaction.js';
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

  it('hides secrets in URLs under any key, in values and in text, and says where', () => {
    const args = {
      endpoint: 'https://api.example.com/v1?api_key=sk-live-77&page=2',
      note: 'fetched https://alice:pw-99@files.example.com/a.txt, then https://x.example/?token=t-1.',
      links: ['https://ok.example/?q=1', 'https://s3.example/o?X-Amz-Signature=abc123&X-Amz-Date=d'],
    };
    const { value, paths } = redactSecrets(args);
    expect(value).toEqual({
      endpoint: 'https://api.example.com/v1?api_key=***&page=2',
      note: 'fetched https://***@files.example.com/a.txt, then https://x.example/?token=***.',
      links: ['https://ok.example/?q=1', 'https://s3.example/o?X-Amz-Signature=***&X-Amz-Date=d'],
    });
    expect(paths).toEqual(['endpoint', 'note', 'links[1]']);
    expect(args.endpoint).toContain('sk-live-77');
  });

  it('leaves strings without URL secrets exactly as they were', () => {
    const args = { url: 'https://example.com/mcp?q=a%20b#top', text: 'see http://127.0.0.1:8000/mcp' };
    const { value, paths } = redactSecrets(args);
    expect(value).toEqual(args);
    expect(paths).toEqual([]);
  });
});

describe('redactUrlSecrets', () => {
  it('hides URL secrets in every string of a record, keys and other values untouched', () => {
    const record = {
      serverId: 'https://mcp.example.com/mcp?key=k-secret-1',
      caller: { kind: 'site', label: 'https://app.example' },
      error: {
        kind: 'transport',
        message: 'the response stream from https://mcp.example.com/mcp?key=k-secret-1 ended (fetch failed)',
      },
      timestamps: { requested: 1, sent: 2 },
      'https://key.example/?token=x': true,
    };
    const shown = redactUrlSecrets(record);
    expect(shown).toEqual({
      serverId: 'https://mcp.example.com/mcp?key=***',
      caller: { kind: 'site', label: 'https://app.example' },
      error: {
        kind: 'transport',
        message: 'the response stream from https://mcp.example.com/mcp?key=*** ended (fetch failed)',
      },
      timestamps: { requested: 1, sent: 2 },
      'https://key.example/?token=x': true,
    });
    expect(JSON.stringify(shown)).not.toContain('k-secret-1');
    expect(record.serverId).toContain('k-secret-1');
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
    // The hash is of the full canonical JSON (one key: the same text as JSON.stringify), computed
    // here by another implementation, so a copy kept elsewhere can be matched to the entry.
    const fullText = JSON.stringify(big);
    expect(stored.sha256).toBe(createHash('sha256').update(fullText, 'utf8').digest('hex'));
    expect(stored.preview.startsWith('{"text":"éé')).toBe(true);
    expect(stored.preview.length).toBeLessThanOrEqual(1024);
  });
});
