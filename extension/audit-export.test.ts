/**
 * The auditCollector policy as an administrator writes it: a good value is taken as given, anything
 * else is refused whole with a sentence naming the field (never a header's value), and "not set"
 * is not a problem. (Starting the export from a parsed policy runs in a worker against the real
 * receiver: e2e/otlp-deploy.spec.ts.)
 */
import { describe, expect, it } from 'vitest';
import { parseAuditCollector } from './audit-export.js';

describe('parseAuditCollector', () => {
  it('takes a full policy as given, and a minimal one without extras', () => {
    expect(
      parseAuditCollector({
        url: 'https://otel.example.com:4318',
        headers: { authorization: 'Bearer k', 'x-scope-orgid': 'acme' },
        serviceName: ' toolgate-acme ',
      }),
    ).toEqual({
      policy: {
        url: 'https://otel.example.com:4318',
        headers: { authorization: 'Bearer k', 'x-scope-orgid': 'acme' },
        serviceName: 'toolgate-acme',
      },
    });
    expect(parseAuditCollector({ url: 'http://127.0.0.1:4318' })).toEqual({
      policy: { url: 'http://127.0.0.1:4318' },
    });
    expect(parseAuditCollector({ url: 'http://localhost:4318/v1/logs', headers: {} })).toEqual({
      policy: { url: 'http://localhost:4318/v1/logs' },
    });
  });

  it('treats an absent policy as not set, with no problem', () => {
    expect(parseAuditCollector(undefined)).toEqual({});
    expect(parseAuditCollector(null)).toEqual({});
  });

  it.each([
    ['a string', 'https://otel.example.com', /not an object/],
    ['a list', [{ url: 'https://otel.example.com' }], /not an object/],
    ['no url', { headers: { a: 'b' } }, /no url/],
    ['a url that is not one', { url: 'otel.example.com' }, /not a URL/],
    ['plain http to another host', { url: 'http://otel.example.com:4318' }, /must be https/],
    ['another scheme', { url: 'ftp://otel.example.com' }, /must be https/],
    ['credentials in the url', { url: 'https://user:pw@otel.example.com' }, /carries credentials/],
    ['headers as a list', { url: 'https://o.example', headers: ['a'] }, /headers are not an object/],
    [
      'a bad header name',
      { url: 'https://o.example', headers: { 'bad name': 'v' } },
      /"bad name" is not a header name/,
    ],
    [
      'a header value that is not a string',
      { url: 'https://o.example', headers: { 'x-key': 5 } },
      /"x-key" is not a single-line/,
    ],
    ['an empty service name', { url: 'https://o.example', serviceName: ' ' }, /serviceName/],
  ])('refuses %s, saying why', (_, value, why) => {
    const parsed = parseAuditCollector(value);
    expect(parsed.policy).toBeUndefined();
    expect(parsed.problem).toMatch(why);
    expect(parsed.problem).toMatch(/stays in this browser only/);
  });

  it('never repeats a header value, even one with a line break', () => {
    const parsed = parseAuditCollector({
      url: 'https://o.example',
      headers: { authorization: 'Bearer secret-123\r\nx-evil: 1' },
    });
    expect(parsed.policy).toBeUndefined();
    expect(parsed.problem).toContain('"authorization"');
    expect(parsed.problem).not.toContain('secret-123');
  });
});
