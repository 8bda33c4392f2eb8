/**
 * Secrets in server URLs: examples for the cases people actually write, and properties (fast-check)
 * for the promises: a URL without secrets is returned unchanged, every secret value and all user
 * info disappear whatever they contain, nothing else of the URL changes, and nothing throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretParamName, redactUrl, redactUrlsInText, URL_SECRET_MASK } from './url-secrets.js';

const SECRET_NAMES = [
  'key',
  'api_key',
  'apikey',
  'token',
  'access_token',
  'auth',
  'secret',
  'password',
  'sig',
  'signature',
];

/** Parameter names that say nothing about credentials. */
const PLAIN_NAMES = [
  'q',
  'page',
  'lang',
  'limit',
  'format',
  'cursor',
  'name',
  'id',
  'sort',
  'author',
  'monkey',
];

/** Characters that may appear unescaped in a query value (no & = # and no space). */
const valueChar = fc.constantFrom(..."abcXYZ0189-._~!$'()*+,;:@/?%".split(''));
const plainValue = fc.string({ unit: valueChar, maxLength: 12 });
/** A secret value: a marker no generated host, path or other value contains, then anything. */
const secretValue = fc.string({ unit: valueChar, maxLength: 16 }).map((tail) => `SeKr3t${tail}`);
const base = fc
  .tuple(fc.constantFrom('https', 'http'), fc.domain(), fc.webPath())
  .map(([scheme, host, path]) => `${scheme}://${host}${path}`);
const plainParam = fc
  .tuple(fc.constantFrom(...PLAIN_NAMES), plainValue)
  .map(([name, value]) => `${name}=${value}`);

describe('redactUrl', () => {
  it('hides secret query values and user info, and keeps everything else', () => {
    expect(redactUrl('https://mcp.example.com/mcp?api_key=sk-live-123&region=eu')).toBe(
      'https://mcp.example.com/mcp?api_key=***&region=eu',
    );
    expect(redactUrl('https://alice:hunter2@mcp.example.com/mcp')).toBe('https://***@mcp.example.com/mcp');
    expect(redactUrl('https://ghp_tokenonly@github.example/mcp')).toBe('https://***@github.example/mcp');
    expect(redactUrl('https://x.example/mcp?X-Amz-Signature=abc&X-Amz-Date=2026')).toBe(
      'https://x.example/mcp?X-Amz-Signature=***&X-Amz-Date=2026',
    );
    expect(redactUrl('https://x.example/cb#access_token=abc&state=s1')).toBe(
      'https://x.example/cb#access_token=***&state=s1',
    );
    expect(redactUrl('https://x.example/messages?sessionId=0f3e')).toBe(
      'https://x.example/messages?sessionId=***',
    );
    // Names that merely contain a secret word's letters are not secrets.
    expect(redactUrl('https://x.example/?author=jane&monkey=1')).toBe(
      'https://x.example/?author=jane&monkey=1',
    );
  });

  it('matches parameter names case-insensitively, in every spelling people use', () => {
    for (const name of [
      'KEY',
      'Api_Key',
      'apiKey',
      'x-api-key',
      'ACCESS_TOKEN',
      'refreshToken',
      'client_secret',
    ])
      expect(isSecretParamName(name), name).toBe(true);
    for (const name of PLAIN_NAMES) expect(isSecretParamName(name), name).toBe(false);
  });

  it('hides the secrets of a URL carried percent-encoded in another URL’s parameter', () => {
    const inner = 'https://b.example/cb?access_token=at-1&state=s';
    const url = `https://a.example/login?next=${encodeURIComponent(inner)}&lang=en`;
    expect(redactUrl(url)).toBe(
      `https://a.example/login?next=${encodeURIComponent('https://b.example/cb?access_token=***&state=s')}&lang=en`,
    );
    expect(redactUrl(redactUrl(url))).toBe(redactUrl(url));
  });

  it('reads a parameter name percent-encoded character by character as the same name', () => {
    const everyByte = (name: string) =>
      [...new TextEncoder().encode(name)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    fc.assert(
      fc.property(fc.constantFrom(...SECRET_NAMES), secretValue, (name, value) => {
        expect(redactUrl(`https://x.example/?${everyByte(name)}=${value}`)).not.toContain('SeKr3t');
      }),
    );
  });

  it('redacts text that is not a valid URL as far as its shape allows', () => {
    expect(redactUrl('not a url?token=abc def')).toBe('not a url?token=***');
    expect(redactUrl('127.0.0.1:8000/mcp')).toBe('127.0.0.1:8000/mcp');
  });

  it('returns a URL without secrets byte for byte', () => {
    fc.assert(
      fc.property(
        base,
        fc.array(plainParam, { maxLength: 4 }),
        fc.option(fc.webFragments(), { nil: undefined }),
        (start, params, fragment) => {
          const url = `${start}${params.length ? `?${params.join('&')}` : ''}${fragment === undefined ? '' : `#${fragment}`}`;
          expect(redactUrl(url)).toBe(url);
        },
      ),
    );
  });

  it('hides every secret value, whatever it holds, and leaves the other parameters as they were', () => {
    fc.assert(
      fc.property(
        base,
        fc.array(
          fc.oneof(
            plainParam.map((pair) => ({ pair, secret: undefined })),
            fc
              .tuple(fc.mixedCase(fc.constantFrom(...SECRET_NAMES)), secretValue)
              .map(([name, value]) => ({ pair: `${name}=${value}`, secret: { name, value } })),
          ),
          { minLength: 1, maxLength: 5 },
        ),
        (start, items) => {
          const url = `${start}?${items.map((item) => item.pair).join('&')}`;
          const shown = redactUrl(url);
          expect(shown).not.toContain('SeKr3t');
          expect(shown.startsWith(`${start}?`)).toBe(true);
          const pairs = shown.slice(start.length + 1).split('&');
          expect(pairs).toHaveLength(items.length);
          items.forEach((item, index) => {
            expect(pairs[index]).toBe(item.secret ? `${item.secret.name}=${URL_SECRET_MASK}` : item.pair);
          });
        },
      ),
    );
  });

  it('hides user info of any shape, and the URL still names the same host and path', () => {
    const info = fc.string({
      unit: fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=%:@".split('')),
      maxLength: 12,
    });
    fc.assert(
      fc.property(info, fc.domain(), fc.webPath(), (tail, host, path) => {
        const url = `https://SeKr3t${tail}@${host}${path}`;
        const shown = redactUrl(url);
        expect(shown).not.toContain('SeKr3t');
        expect(shown).toBe(`https://${URL_SECRET_MASK}@${host}${path}`);
        const parsed = new URL(shown);
        expect(parsed.hostname).toBe(new URL(`https://${host}${path}`).hostname);
        expect(parsed.password).toBe('');
      }),
    );
  });

  it('never throws and is idempotent on any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.webUrl({ withQueryParameters: true, withFragments: true })),
        (text) => {
          const once = redactUrl(text);
          expect(redactUrl(once)).toBe(once);
        },
      ),
    );
  });
});

describe('redactUrlsInText', () => {
  it('redacts each URL in a message and keeps the sentence around it', () => {
    expect(
      redactUrlsInText('https://a.example/mcp?token=abc answered HTTP 500 (see https://b.example/?key=k1).'),
    ).toBe('https://a.example/mcp?token=*** answered HTTP 500 (see https://b.example/?key=***).');
    expect(redactUrlsInText('no urls here, token=abc')).toBe('no urls here, token=abc');
  });

  it('leaves no secret value of any embedded URL', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }).filter((text) => !text.includes('SeKr3t')),
        base,
        fc.constantFrom(...SECRET_NAMES),
        secretValue,
        fc.constantFrom('', '.', ',', ')', ':'),
        (prefix, start, name, value, punctuation) => {
          const text = `${prefix} ${start}?${name}=${value}${punctuation} and more`;
          const shown = redactUrlsInText(text);
          expect(shown).not.toContain('SeKr3t');
          expect(redactUrlsInText(shown)).toBe(shown);
        },
      ),
    );
  });
});
