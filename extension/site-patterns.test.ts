import { describe, expect, it } from 'vitest';
import {
  originOfPattern,
  parseSiteAddress,
  planPageScripts,
  scriptIds,
  sitePattern,
} from './site-patterns.js';

describe('site patterns (one turned-on site is one exact origin)', () => {
  it('names the port, the default one included, so a pattern covers one origin only', () => {
    expect(sitePattern('https://app.example')).toBe('https://app.example:443/*');
    expect(sitePattern('http://app.example')).toBe('http://app.example:80/*');
    expect(sitePattern('http://127.0.0.1:5173')).toBe('http://127.0.0.1:5173/*');
    expect(sitePattern('http://[::1]:8080')).toBe('http://[::1]:8080/*');
    for (const origin of [
      'https://app.example',
      'http://127.0.0.1:5173',
      'https://app.example:8443',
      'http://[::1]:8080',
    ])
      expect(originOfPattern(sitePattern(origin))).toBe(origin);
  });

  it('ignores every pattern that is not one exact origin', () => {
    for (const pattern of [
      'https://*/*',
      'http://*/*',
      '<all_urls>',
      '*://app.example/*',
      'https://app.example/*',
      'https://*.app.example:443/*',
      'https://app.example:443/path/*',
      'https://app.example:0443/*',
      'file:///*',
    ])
      expect([pattern, originOfPattern(pattern)]).toEqual([pattern, undefined]);
  });

  it('reads what a person types as an origin, or says why it is not one', () => {
    expect(parseSiteAddress(' app.example/page?x=1 ')).toEqual({ origin: 'https://app.example' });
    expect(parseSiteAddress('localhost:3000')).toEqual({ origin: 'https://localhost:3000' });
    expect(parseSiteAddress('http://127.0.0.1:8080/x')).toEqual({ origin: 'http://127.0.0.1:8080' });
    expect(parseSiteAddress('')).toMatchObject({ problem: expect.stringContaining('Type the address') });
    expect(parseSiteAddress('javascript:alert(1)')).toMatchObject({
      problem: expect.stringContaining('http and https'),
    });
    expect(parseSiteAddress('file:///etc/passwd')).toMatchObject({
      problem: expect.stringContaining('http and https'),
    });
    expect(parseSiteAddress('https://')).toMatchObject({
      problem: expect.stringContaining('not a web address'),
    });
  });

  it('plans the scripts so that exactly the turned-on origins have both of theirs', () => {
    const a = 'https://a.example';
    const b = 'https://b.example';
    const c = 'https://c.example';
    const registered = [
      scriptIds(a).bridge,
      scriptIds(a).api,
      scriptIds(b).bridge, // b lost its API script: it gets both again
      scriptIds(c).bridge,
      scriptIds(c).api,
      'someone-else',
    ];
    expect(planPageScripts([a, b], registered)).toEqual({
      register: [b],
      unregister: [scriptIds(b).bridge, scriptIds(c).bridge, scriptIds(c).api],
    });
    expect(planPageScripts([], [])).toEqual({ register: [], unregister: [] });
  });
});
