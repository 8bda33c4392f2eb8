/**
 * Redaction by meaning: examples for the shapes people actually send (the issue's own call among
 * them), and properties (fast-check) for the promises: no secret substring survives at any depth
 * or in any encoding handled, the rest of the value and its structure are kept, redacting twice is
 * redacting once, and the input is never touched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isRedacted,
  REDACTED,
  redactionMarker,
  redactSecrets,
  redactSecretsInStrings,
  redactSecretsInText,
} from './redaction.js';

describe('redactSecrets: by name', () => {
  it('redacts the issue’s call: secret names, env maps, header pairs and a curl line', () => {
    const args = {
      auth_header: 'Token abc123',
      bearer: 'opaque-1',
      pass: 'hunter2',
      env: {
        GITHUB_PAT: 'github-pat-value-1',
        AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
        HOME: '/home/ada',
      },
      headers: [
        { name: 'Authorization', value: 'Bearer sk-e2e0123456789abcdefXYZ' },
        { name: 'Accept', value: 'application/json' },
      ],
      cmd: "curl -H 'Authorization: Bearer sk-e2e0123456789abcdefXYZ' https://api.example.com/v1",
    };
    const { value, paths } = redactSecrets(args);
    expect(value).toEqual({
      auth_header: REDACTED,
      bearer: REDACTED,
      pass: REDACTED,
      env: { GITHUB_PAT: REDACTED, AWS_SECRET_ACCESS_KEY: REDACTED, HOME: '/home/ada' },
      headers: [
        { name: 'Authorization', value: REDACTED },
        { name: 'Accept', value: 'application/json' },
      ],
      cmd: `curl -H 'Authorization: Bearer ${redactionMarker('bearer token')}' https://api.example.com/v1`,
    });
    expect(paths).toEqual([
      'auth_header',
      'bearer',
      'pass',
      'env.GITHUB_PAT',
      'env.AWS_SECRET_ACCESS_KEY',
      'headers[0].value',
      'cmd',
    ]);
    // A copy: what was approved is what is sent.
    expect(args.env.GITHUB_PAT).toBe('github-pat-value-1');
    expect(args.headers[0]!.value).toContain('sk-e2e');
  });

  it('keeps the structure under a secret name, hiding its strings and numbers but not its flags', () => {
    const { value, paths } = redactSecrets({
      credentials: { user: 'ada', pass: 'p', pin: 1234, remember: true, hint: null },
      api_keys: ['k1', 'k2'],
    });
    expect(value).toEqual({
      credentials: { user: REDACTED, pass: REDACTED, pin: REDACTED, remember: true, hint: null },
      api_keys: [REDACTED, REDACTED],
    });
    expect(paths).toEqual([
      'credentials.user',
      'credentials.pass',
      'credentials.pin',
      'api_keys[0]',
      'api_keys[1]',
    ]);
  });

  it('reads name/value pairs in every common spelling, and never hides the name itself', () => {
    const { value } = redactSecrets({
      har: [{ name: 'Cookie', value: 'sid=1' }],
      postman: [{ key: 'X-Api-Key', value: 'k-1', type: 'text' }],
      aws: [{ Key: 'SESSION_TOKEN', Value: 't-1' }],
      k8s: [{ name: 'DB_PASSWORD', value: 'p-1' }],
      plain: [{ key: 'Content-Type', value: 'text/plain' }],
      kv: { key: 'user:42', value: 'Ada' },
    });
    expect(value).toEqual({
      har: [{ name: 'Cookie', value: REDACTED }],
      postman: [{ key: 'X-Api-Key', value: REDACTED, type: 'text' }],
      aws: [{ Key: 'SESSION_TOKEN', Value: REDACTED }],
      k8s: [{ name: 'DB_PASSWORD', value: REDACTED }],
      plain: [{ key: 'Content-Type', value: 'text/plain' }],
      kv: { key: 'user:42', value: 'Ada' },
    });
    // A lone `key` is a credential (`?key=` is Google's API key); in a pair it is the pair's name.
    expect(redactSecrets({ key: 'AIza-like-value' }).value).toEqual({ key: REDACTED });
  });

  it('leaves names that only look like credentials readable', () => {
    const args = {
      keyboard: 'qwerty',
      monkey: 'George',
      passage: 'Genesis 1',
      path: '/tmp/x',
      pattern: '*.ts',
      author: 'Ada',
      max_tokens: 1000,
      token_type: 'Bearer',
      sort_key: 'name',
      public_key: 'ssh-ed25519 AAAAC3Nza',
      private: true,
      env: { PWD: '/home/ada', PATH: '/usr/bin' },
    };
    expect(redactSecrets(args)).toEqual({ value: args, paths: [] });
  });

  it('honours extra names a host adds, on top of the built-in rule', () => {
    const { value } = redactSecrets(
      { ssn: '123', apiKey: 'k', city: 'Oslo' },
      { extraSecretNames: [/^ssn$/] },
    );
    expect(value).toEqual({ ssn: REDACTED, apiKey: REDACTED, city: 'Oslo' });
  });
});

describe('redactSecrets: by shape, whatever the key', () => {
  it('hides well-known token formats and says which', () => {
    const cases: [string, string][] = [
      ['ghp_0123456789abcdefghijABCDEFGHIJ012345', 'github token'],
      ['github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'github token'],
      ['sk-ant-api03-0123456789abcdefABCDEF', 'anthropic key'],
      ['sk-proj-0123456789abcdefABCDEF', 'api key (sk-)'],
      ['xoxb-1234567890-abcdefghij', 'slack token'],
      ['AKIAIOSFODNN7EXAMPLE', 'aws access key id'],
      ['AIzaSyA-0123456789abcdefghijklmnopqrstu', 'google api key'],
      ['sk_live_0123456789abcdef', 'stripe key'],
      ['rk_live_0123456789abcdef', 'stripe key'],
      ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl', 'jwt'],
    ];
    // After a percent escape too (a URL-encoded header value), but not inside a word.
    expect(redactSecretsInText('https://x.example/?h=Bearer%20sk-0123456789abcdefABCD')).toBe(
      `https://x.example/?h=Bearer%20${redactionMarker('bearer token')}`,
    );
    expect(redactSecretsInText('?note=see%20ghp_0123456789abcdefghijABCDEF')).toBe(
      `?note=see%20${redactionMarker('github token')}`,
    );
    expect(redactSecretsInText('task-0123456789abcdefABCDEF')).toBe('task-0123456789abcdefABCDEF');
    for (const [token, reason] of cases) {
      const { value, paths } = redactSecrets({ note: `use ${token} here` });
      expect(value, token).toEqual({ note: `use ${redactionMarker(reason)} here` });
      expect(paths).toEqual(['note']);
    }
  });

  it('hides PEM private key blocks, keeping which kind it was', () => {
    const pem =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
    expect(redactSecretsInText(`key file:\n${pem}\nend`)).toBe(
      `key file:\n-----BEGIN OPENSSH PRIVATE KEY-----${redactionMarker('private key')}-----END OPENSSH PRIVATE KEY-----\nend`,
    );
    // A truncated block (no END line) is hidden to the end of the text.
    expect(redactSecretsInText('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN')).not.toContain('MIIE');
  });

  it('hides credentials in command lines, header dumps, config text and code', () => {
    const text = [
      "curl -u ada:hunter2 -H 'Cookie: sid=abc; theme=dark' -H 'X-Api-Key: k-123' https://x.example/",
      'GITHUB_PAT=tok-123 npm publish --token tok-456 --password="p w"',
      'Authorization: Basic YWRhOmh1bnRlcjI=',
      'password: hunter2',
      'const config = { apiKey: "k-789", region: "eu" };',
      '{\\"client_secret\\":\\"cs-1\\"}',
    ].join('\n');
    const shown = redactSecretsInText(text);
    for (const secret of [
      'hunter2',
      'sid=abc',
      'k-123',
      'tok-123',
      'tok-456',
      'p w',
      'YWRh',
      'k-789',
      'cs-1',
    ])
      expect(shown, secret).not.toContain(secret);
    for (const kept of ['curl -u ada:', 'Cookie: ', 'npm publish', 'region: "eu"', 'https://x.example/'])
      expect(shown).toContain(kept);
    expect(shown).toContain(`Authorization: Basic ${redactionMarker('basic credentials')}`);
  });

  it('leaves prose that merely uses the words alone', () => {
    for (const text of [
      'The bearer of this letter is a friend.',
      'Basic Authentication is not recommended.',
      'key: press Enter to continue',
      'session: 3 of 5',
      'max_tokens=1000 --sort-key name',
      'see https://example.com/docs?page=2#auth',
      'a risk-assessment-framework-v2 task',
    ])
      expect(redactSecretsInText(text), text).toBe(text);
  });

  it('hides URL user info and secret parameters, also inside an encoded URL', () => {
    const { value } = redactSecrets({
      db: 'postgres://ada:pw-1@db.example/app',
      link: 'https://a.example/cb?redirect=https%3A%2F%2Fb.example%2F%3Faccess_token%3Dat-1&x=1',
      param: 'https://a.example/?api%5Fkey=k-1',
    });
    expect(JSON.stringify(value)).not.toMatch(/pw-1|at-1|k-1/);
    expect(value).toEqual({
      db: 'postgres://***@db.example/app',
      link: 'https://a.example/cb?redirect=https%3A%2F%2Fb.example%2F%3Faccess_token%3D***&x=1',
      param: 'https://a.example/?api%5Fkey=***',
    });
  });

  it('reads a JSON string inside a string as data, and writes it back the way it was indented', () => {
    const inner = { user: 'ada', password: 'pw-1', deeper: JSON.stringify({ env: { NPM_TOKEN: 'npm-1' } }) };
    const { value, paths } = redactSecrets({
      text: JSON.stringify(inner, null, 2),
      compact: JSON.stringify(inner),
      plain: JSON.stringify({ user: 'ada' }),
    });
    expect(paths).toEqual(['text', 'compact']);
    const expected = {
      user: 'ada',
      password: REDACTED,
      deeper: JSON.stringify({ env: { NPM_TOKEN: REDACTED } }),
    };
    expect(value.text).toBe(JSON.stringify(expected, null, 2));
    expect(value.compact).toBe(JSON.stringify(expected));
    expect(value.plain).toBe('{"user":"ada"}');
  });
});

describe('redactSecretsInStrings (a record’s envelope)', () => {
  it('hides secrets by shape in every string, keeps keys and the record’s own names', () => {
    const record = {
      serverId: 'https://mcp.example.com/mcp?key=k-secret-1',
      sessionId: 'log-session-1',
      error: { kind: 'tool', message: 'rejected token ghp_0123456789abcdefghijABCDEFGHIJ012345 (401)' },
      timestamps: { requested: 1, sent: 2 },
      'https://key.example/?token=x': true,
    };
    expect(redactSecretsInStrings(record)).toEqual({
      serverId: 'https://mcp.example.com/mcp?key=***',
      sessionId: 'log-session-1',
      error: { kind: 'tool', message: `rejected token ${redactionMarker('github token')} (401)` },
      timestamps: { requested: 1, sent: 2 },
      'https://key.example/?token=x': true,
    });
    expect(record.serverId).toContain('k-secret-1');
  });
});

// ---- Properties ----

/** A marker no plain generated text contains; every planted secret starts with it and ends with END. */
const MARK = 'SeKr3t';
const END = 'EnD9';
const secretValue = fc
  .string({ unit: fc.constantFrom(...'abcdefXYZ0123456789'.split('')), minLength: 14, maxLength: 24 })
  .map((middle) => `${MARK}${middle}${END}`);

const secretName = fc.constantFrom(
  'password',
  'auth_header',
  'GITHUB_PAT',
  'AWS_SECRET_ACCESS_KEY',
  'apiKey',
  'x-api-key',
  'client.secret',
  'SessionId',
  'bearer',
  'pass',
);
const plainName = fc.constantFrom(
  'city',
  'path',
  'pattern',
  'keyboard',
  'author',
  'title',
  'notes',
  'items',
  'max_tokens',
  'token_type',
  'sort_key',
  'page',
);
const plainText = fc
  .array(
    fc.constantFrom(
      'the',
      'bearer',
      'of',
      'key',
      'pass',
      'session',
      'a',
      'note',
      'Basic',
      'path',
      '42',
      'Oslo',
    ),
    {
      maxLength: 6,
    },
  )
  .map((words) => words.join(' '));
const plainLeaf = fc.oneof(plainText, fc.integer(), fc.boolean(), fc.constant(null));

/** Strings that hold a secret in one of the shapes recognized in free text. */
const secretInText = fc
  .tuple(
    secretValue,
    secretName,
    fc.constantFrom(
      (s: string) => `curl -H 'Authorization: Bearer ${s}' https://api.example.com`,
      (s: string) => `Authorization: Basic ${btoa(`ada:${s}`)}`,
      (s: string) => `ghp_${s}0123456789`,
      (s: string) => `sk-${s}`,
      (s: string) => `https://ada:${s}@host.example/x`,
      (s: string) => `https://host.example/x?access_token=${s}&page=2`,
      (s: string) => `https://a.example/?next=${encodeURIComponent(`https://b.example/?token=${s}`)}`,
      (s: string, name: string) => `export ${name.replace(/[^A-Za-z_]/g, '_')}=${s}`,
      (s: string) => `tool --password ${s} --verbose`,
      (s: string, name: string) => JSON.stringify({ [name]: s, city: 'Oslo' }),
      (s: string, name: string) => JSON.stringify({ note: JSON.stringify({ [name]: s }) }),
    ),
  )
  .map(([secret, name, shape]) => shape(secret, name));

/** A value with secrets planted at any depth: under secret names, in pairs, in text. */
const { document } = fc.letrec<{ document: unknown; node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plainLeaf,
    secretInText,
    fc.tuple(secretName, secretValue).map(([name, value]) => ({ [name]: value })),
    fc.tuple(secretName, secretValue).map(([name, value]) => ({ name, value })),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(plainName, tie('node'), { maxKeys: 3 }),
  ),
  document: fc.dictionary(plainName, tie('node'), { maxKeys: 4 }),
}));

/** A value with no secret in it at all. */
const { cleanDocument } = fc.letrec<{ cleanDocument: unknown; cleanNode: unknown }>((tie) => ({
  cleanNode: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plainLeaf,
    fc.array(tie('cleanNode'), { maxLength: 3 }),
    fc.dictionary(plainName, tie('cleanNode'), { maxKeys: 3 }),
  ),
  cleanDocument: fc.dictionary(plainName, tie('cleanNode'), { maxKeys: 4 }),
}));

/** Every key path and array length, and the type of each leaf (a redacted string is still a leaf). */
function skeleton(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(skeleton);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, skeleton(child)]));
  return typeof value === 'boolean' || value === null ? value : 'scalar';
}

describe('redactSecrets: properties', () => {
  it('leaves no planted secret, nor any piece of one, at any depth', () => {
    // The generator plants secrets in most documents (else this property would say little).
    const planted = fc.sample(document, 200).filter((value) => JSON.stringify(value).includes(MARK));
    expect(planted.length).toBeGreaterThan(100);
    fc.assert(
      fc.property(document, (value) => {
        const shown = JSON.stringify(redactSecrets(value).value);
        expect(shown).not.toContain(MARK);
        expect(shown).not.toContain(END);
        expect(shown).not.toContain(btoa(`ada:${MARK}`).slice(0, 12));
      }),
    );
  });

  it('keeps the structure: the same keys, array lengths, flags and nulls', () => {
    fc.assert(
      fc.property(document, (value) => {
        expect(skeleton(redactSecrets(value).value)).toEqual(skeleton(value));
      }),
    );
  });

  it('returns a value without secrets as it was, with no path reported', () => {
    fc.assert(
      fc.property(cleanDocument, (value) => {
        expect(redactSecrets(value)).toEqual({ value, paths: [] });
      }),
    );
  });

  it('is idempotent: redacting again changes nothing and reports nothing', () => {
    fc.assert(
      fc.property(document, (value) => {
        const once = redactSecrets(value).value;
        expect(redactSecrets(once)).toEqual({ value: once, paths: [] });
      }),
    );
  });

  it('never touches its input', () => {
    fc.assert(
      fc.property(document, (value) => {
        const before = JSON.stringify(value);
        redactSecrets(value);
        expect(JSON.stringify(value)).toBe(before);
      }),
    );
  });

  it('finds a secret however deep it is nested, within the depth a record keeps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), secretValue, (depth, secret) => {
        let value: unknown = { auth_header: secret };
        for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { items: value };
        const { value: shown, paths } = redactSecrets(value);
        expect(JSON.stringify(shown)).not.toContain(MARK);
        expect(paths).toHaveLength(1);
        expect(paths[0]).toMatch(/auth_header$/);
      }),
    );
  });

  it('never throws, and marks only what it changed, on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const once = redactSecretsInText(text);
        expect(redactSecretsInText(once)).toBe(once);
      }),
    );
    expect(isRedacted(REDACTED)).toBe(true);
    expect(isRedacted('Bearer [redacted: bearer token]')).toBe(true);
    expect(isRedacted('token')).toBe(false);
  });
});
