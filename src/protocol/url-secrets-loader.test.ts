/**
 * The promise that lets a plain call skip the URL rule: text without `@` and `=` is what redactUrl
 * returns for it, and a URL made from it holds no secret. Property-checked over URL-ish text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUrl, secretsInUrl } from './url-secrets.js';
import { loadUrlSecrets, mayCarryUrlSecrets, redactUrlWhenNeeded } from './url-secrets-loader.js';

const URL_CHARS = fc.constantFrom(..."abcAPI_key-token.:/?#&%+@=~!$'()*,;[]\\ 0129".split(''));

describe('mayCarryUrlSecrets', () => {
  it('is false only for text that redactUrl leaves alone and whose URL holds no secret', () => {
    fc.assert(
      fc.property(fc.string({ unit: URL_CHARS, maxLength: 40 }), (rest) => {
        const text = `https://${rest}`;
        if (mayCarryUrlSecrets(text)) return;
        expect(redactUrl(text)).toBe(text);
        if (URL.canParse(text)) expect(secretsInUrl(new URL(text))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('is true for user info and for any parameter with a value', () => {
    expect(mayCarryUrlSecrets('https://user:pass@example.com/mcp')).toBe(true);
    expect(mayCarryUrlSecrets('https://example.com/mcp?token=abc')).toBe(true);
    expect(mayCarryUrlSecrets('https://example.com/mcp#access_token=abc')).toBe(true);
    expect(mayCarryUrlSecrets('https://example.com/mcp?plain')).toBe(false);
  });
});

describe('redactUrlWhenNeeded', () => {
  it('masks what redactUrl masks, and loads the same rule', async () => {
    expect(await redactUrlWhenNeeded('https://example.com/mcp?api_key=sk-1&x=1')).toBe(
      'https://example.com/mcp?api_key=***&x=1',
    );
    expect(await redactUrlWhenNeeded('https://example.com/mcp')).toBe('https://example.com/mcp');
    expect((await loadUrlSecrets()).redactUrl).toBe(redactUrl);
  });
});
