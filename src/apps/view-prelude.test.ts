import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_DNS_PREFETCH_META } from './csp.js';
import { appDocument, viewPreludeScript, withoutDeclarativeShadowRoots } from './view-prelude.js';

const policy = "default-src 'none'; script-src 'self' 'unsafe-inline'";
const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'unsafe-inline'">`;
/** The check public/mcp-app-sandbox.html makes before it renders anything. */
const PROXY_CHECK = /^(<!doctype[^>]*>)?<meta http-equiv="Content-Security-Policy" content="([^"<>]+)">/i;

describe('appDocument', () => {
  it('is the policy, DNS prefetching off, the prelude, then the app', () => {
    const html = appDocument('<!doctype html><html><script>app()</script></html>', policy);
    expect(html).toBe(
      `<!doctype html>${meta}${NO_DNS_PREFETCH_META}${viewPreludeScript()}<html><script>app()</script></html>`,
    );
    expect(PROXY_CHECK.test(html)).toBe(true);
    expect(PROXY_CHECK.test(appDocument('<p>no doctype</p>', policy))).toBe(true);
  });

  it('turns declarative shadow roots off in the app, never in the prelude', () => {
    const html = appDocument(
      '<div><template ShadowRootMode="closed"><iframe></iframe></template></div>',
      policy,
    );
    expect(html).toContain('<template ShadowRoot_Mode="closed">');
    expect(html).toContain(viewPreludeScript());
  });
});

describe('viewPreludeScript', () => {
  it('is one classic script that nothing inside it closes early', () => {
    const script = viewPreludeScript();
    expect(script.startsWith('<script>(')).toBe(true);
    expect(script.endsWith(')()</script>')).toBe(true);
    expect(script.slice(0, -'</script>'.length)).not.toMatch(/<\/script|<!--/i);
  });

  it('takes away WebRTC and watches srcdoc frames', () => {
    const script = viewPreludeScript();
    expect(script).toContain('(webkit)?RTC');
    expect(script).toContain('iframe[srcdoc]');
  });
});

describe('withoutDeclarativeShadowRoots', () => {
  it('leaves no shadowrootmode in any ASCII case, and is stable', () => {
    const word = fc
      .array(fc.boolean(), { minLength: 14, maxLength: 14 })
      .map((upper) => [...'shadowrootmode'].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
    const text = fc
      .array(fc.oneof(word, fc.string({ maxLength: 6 })), { maxLength: 12 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (html) => {
        const cleaned = withoutDeclarativeShadowRoots(html);
        expect(cleaned.toLowerCase()).not.toContain('shadowrootmode');
        expect(withoutDeclarativeShadowRoots(cleaned)).toBe(cleaned);
      }),
    );
  });

  it('keeps a script that names the property valid', () => {
    expect(withoutDeclarativeShadowRoots('t.shadowRootMode = "open";')).toBe('t.shadowRoot_Mode = "open";');
  });
});
