import { describe, expect, it } from 'vitest';
import {
  allowAttribute,
  buildCsp,
  checkCsp,
  NO_DNS_PREFETCH_META,
  permissionsObject,
  RESTRICTIVE_DEFAULT_CSP,
  requestedPermissions,
  withCspMeta,
} from './csp.js';

/** The directives of a policy, by name. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('checkCsp and buildCsp', () => {
  it('uses exactly the specification restrictive default when the resource declares no csp', () => {
    const checked = checkCsp(undefined);
    expect(checked.declared).toBe(false);
    const policy = directives(buildCsp(checked));
    expect(buildCsp(checked)).toBe(RESTRICTIVE_DEFAULT_CSP);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['script-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy['img-src']).toEqual(["'self'", 'data:']);
    expect(policy['media-src']).toEqual(["'self'", 'data:']);
    expect(policy['connect-src']).toEqual(["'none'"]);
    expect(policy['frame-src']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'self'"]);
  });

  it('adds declared origins to their directives only', () => {
    const policy = directives(
      buildCsp(
        checkCsp({
          connectDomains: ['https://api.example', 'wss://live.example'],
          resourceDomains: ['https://*.cdn.example'],
          frameDomains: ['https://video.example'],
          baseUriDomains: ['https://base.example'],
        }),
      ),
    );
    expect(policy['connect-src']).toEqual(['https://api.example', 'wss://live.example']);
    for (const name of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src'])
      expect(policy[name]).toContain('https://*.cdn.example');
    expect(policy['script-src']).not.toContain('https://api.example');
    expect(policy['frame-src']).toEqual(['https://video.example']);
    expect(policy['base-uri']).toEqual(['https://base.example']);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
  });

  it('keeps connect-src closed when only resource origins are declared', () => {
    const policy = directives(buildCsp(checkCsp({ resourceDomains: ['https://unpkg.com'] })));
    expect(policy['connect-src']).toEqual(["'none'"]);
    expect(policy['frame-src']).toEqual(["'none'"]);
  });

  it.each([
    ['a directive smuggled after a semicolon', 'https://a.example; script-src *'],
    ['a keyword', "'unsafe-eval'"],
    ['a bare wildcard', '*'],
    ['a scheme source', 'https:'],
    ['a data source', 'data:'],
    ['a javascript URL', 'javascript:alert(1)'],
    ['an attribute break', 'https://a.example" onload="x'],
    ['a path', 'https://a.example/path'],
    ['another scheme', 'ftp://files.example'],
    ['a non-string', 42],
  ])('drops %s and says so', (_what, entry) => {
    const checked = checkCsp({ connectDomains: [entry] });
    expect(checked.csp.connectDomains).toEqual([]);
    expect(checked.ignored).toHaveLength(1);
    expect(checked.ignored[0]).toContain('connectDomains');
    expect(directives(buildCsp(checked))['connect-src']).toEqual(["'none'"]);
  });

  it('accepts ports, IPv6 hosts, and one trailing slash; drops duplicates', () => {
    const checked = checkCsp({
      connectDomains: [
        'http://127.0.0.1:8080',
        'https://[::1]:9000',
        'https://a.example/',
        'https://a.example',
      ],
    });
    expect(checked.csp.connectDomains).toEqual([
      'http://127.0.0.1:8080',
      'https://[::1]:9000',
      'https://a.example',
    ]);
    expect(checked.ignored).toEqual([]);
  });

  it('reads a malformed declaration as declaring nothing', () => {
    expect(checkCsp('connect everywhere').declared).toBe(false);
    expect(checkCsp({ connectDomains: 'https://a.example' }).ignored).toEqual(['connectDomains: not a list']);
  });
});

describe('withCspMeta', () => {
  const policy = "default-src 'none'; script-src 'self' 'unsafe-inline'";
  const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'unsafe-inline'">`;

  it('puts the policy right after the doctype, before anything of the app', () => {
    const html = '<!DOCTYPE html>\n<html><head><script>run()</script></head></html>';
    expect(withCspMeta(html, policy)).toBe(
      `<!DOCTYPE html>${meta}\n<html><head><script>run()</script></head></html>`,
    );
  });

  it('puts the policy first when there is no doctype', () => {
    expect(withCspMeta('<script>run()</script>', policy)).toBe(`${meta}<script>run()</script>`);
  });

  it('escapes what would end the attribute', () => {
    expect(withCspMeta('', 'a "b" <c> & d')).toBe(
      '<meta http-equiv="Content-Security-Policy" content="a &quot;b&quot; &lt;c&gt; &amp; d">',
    );
  });

  it('is what the proxy page looks for before it renders anything', () => {
    const proxyCheck = /^(<!doctype[^>]*>)?<meta http-equiv="Content-Security-Policy" content="([^"<>]+)">/i;
    expect(proxyCheck.test(withCspMeta('<!doctype html><p>hi</p>', policy))).toBe(true);
    expect(proxyCheck.test(withCspMeta('<p>hi</p>', policy))).toBe(true);
    expect(proxyCheck.test('<!doctype html><p>no policy</p>')).toBe(false);
  });
});

describe('permissions', () => {
  it('maps the declared permissions to Permission Policy names, ignoring unknown ones', () => {
    expect(requestedPermissions({ camera: {}, clipboardWrite: {}, teleport: {} })).toEqual([
      'camera',
      'clipboard-write',
    ]);
    expect(requestedPermissions(['camera'])).toEqual([]);
    expect(requestedPermissions(undefined)).toEqual([]);
  });

  it('grants nothing unless the person granted it', () => {
    expect(allowAttribute([])).toBe('');
    expect(allowAttribute(['microphone', 'geolocation'])).toBe('microphone; geolocation');
    expect(permissionsObject(['clipboard-write'])).toEqual({ clipboardWrite: {} });
  });
});

describe('withCspMeta with markup after the policy', () => {
  const policy = "default-src 'none'";
  const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`;

  it('puts that markup right after the policy, before the app', () => {
    expect(withCspMeta('<!doctype html><p>app</p>', policy, NO_DNS_PREFETCH_META)).toBe(
      `<!doctype html>${meta}${NO_DNS_PREFETCH_META}<p>app</p>`,
    );
    expect(withCspMeta('<p>app</p>', policy, '<script>first()</script>')).toBe(
      `${meta}<script>first()</script><p>app</p>`,
    );
  });
});
