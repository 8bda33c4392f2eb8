/**
 * The doctor's step logic: the verdicts drawn from what a page can observe, the fix for an origin,
 * the answers read from JSON and event-stream bodies, redaction of what the report shows; and a
 * whole diagnosis against real peers (Node's fetch has no CORS, so those steps pass there: the
 * browser cases are e2e/doctor.spec.ts).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../../e2e/support/peers.js';
import { corsFix, corsOptions } from './cors-fix.js';
import { diagnose } from './diagnose.js';
import { rpcMessageIn } from './probe.js';
import { redactExchange } from './report.js';
import { preflightVerdict, sessionHeaderVerdict, simpleCorsVerdict } from './verdicts.js';

const ORIGIN = 'https://app.example:8443';

describe('simpleCorsVerdict', () => {
  it('a request that reaches the server but whose CORS twin fails lacks Access-Control-Allow-Origin', () => {
    const verdict = simpleCorsVerdict(true, false, ORIGIN);
    expect(verdict.outcome).toBe('fail');
    expect(verdict.missingHeader).toBe('Access-Control-Allow-Origin');
    expect(verdict.reason).toContain(`Access-Control-Allow-Origin: ${ORIGIN}`);
  });
  it('passes when the CORS request is answered, and is skipped when nothing answered', () => {
    expect(simpleCorsVerdict(true, true, ORIGIN).outcome).toBe('pass');
    expect(simpleCorsVerdict(false, false, ORIGIN).outcome).toBe('skipped');
  });
});

describe('preflightVerdict', () => {
  it('names each refused request header', () => {
    const verdict = preflightVerdict(
      true,
      { accept: true, 'mcp-session-id': false, authorization: false },
      ORIGIN,
    );
    expect(verdict.outcome).toBe('fail');
    expect(verdict.refused).toEqual(['mcp-session-id', 'authorization']);
    expect(verdict.reason).toContain('Access-Control-Allow-Headers including mcp-session-id, authorization');
    expect(verdict.reason).toContain(ORIGIN);
  });
  it('a refused JSON POST asks for POST and content-type', () => {
    const verdict = preflightVerdict(false, {}, ORIGIN);
    expect(verdict.outcome).toBe('fail');
    expect(verdict.reason).toMatch(/Access-Control-Allow-Methods including POST.*content-type/);
  });
  it('passes when every header was allowed', () => {
    expect(preflightVerdict(true, { accept: true, 'mcp-protocol-version': true }, ORIGIN).outcome).toBe(
      'pass',
    );
  });
});

describe('sessionHeaderVerdict', () => {
  it('a hidden session id the server then asks for is a missing Access-Control-Expose-Headers', () => {
    const verdict = sessionHeaderVerdict(false, true, ORIGIN);
    expect(verdict.outcome).toBe('fail');
    expect(verdict.missingHeader).toBe('Access-Control-Expose-Headers');
  });
  it('no session id and no refusal is a stateless server', () => {
    expect(sessionHeaderVerdict(false, false, ORIGIN).outcome).toBe('pass');
    expect(sessionHeaderVerdict(true, false, ORIGIN).outcome).toBe('pass');
  });
});

describe('corsFix', () => {
  it('names the exact origin and every header Toolgate sends and reads', () => {
    const fix = corsFix(ORIGIN);
    expect(fix.headers).toContain(`Access-Control-Allow-Origin: ${ORIGIN}`);
    expect(fix.headers).toContain('Access-Control-Expose-Headers: mcp-session-id, www-authenticate');
    for (const name of [
      'mcp-session-id',
      'mcp-protocol-version',
      'authorization',
      'content-type',
      'last-event-id',
    ])
      expect(fix.headers).toMatch(new RegExp(`Access-Control-Allow-Headers: .*${name}`));
    expect(fix.express).toContain("import cors from 'cors'");
    const express = fix.express.slice(fix.express.indexOf('cors(') + 5, fix.express.lastIndexOf('));'));
    expect(JSON.parse(express)).toEqual(corsOptions(ORIGIN));
    expect(fix.hono).toContain("from 'hono/cors'");
    expect(fix.hono).toContain(`"origin": "${ORIGIN}"`);
  });
});

describe('the manual', () => {
  it('shows the Express fix exactly as the doctor writes it (docs/servers.md)', () => {
    const manual = readFileSync(new URL('../../../docs/servers.md', import.meta.url), 'utf8');
    const block = /```js fragment\n([\s\S]*?)\n```/.exec(manual)?.[1];
    expect(block).toBe(corsFix('https://app.example.com').express);
  });
  it('shows the Python and nginx fixes exactly as the doctor writes them', () => {
    const manual = readFileSync(new URL('../../../docs/servers.md', import.meta.url), 'utf8');
    const fix = corsFix('https://app.example.com', 'https://mcp.example.com/mcp');
    expect(/```python\n([\s\S]*?)\n```/.exec(manual)?.[1]).toBe(fix.python);
    expect(/```nginx\n([\s\S]*?)\n```/.exec(manual)?.[1]).toBe(fix.nginx);
  });
});

describe('rpcMessageIn', () => {
  it('reads a JSON answer and the first answer of an event stream', () => {
    expect(rpcMessageIn('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {},
    });
    const stream =
      'event: message\nid: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message"}\n\ndata: {"jsonrpc":"2.0","id":2,"result":{"tools":[]}}\n\n';
    expect(rpcMessageIn(stream)).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
    expect(rpcMessageIn('<html>')).toBeUndefined();
  });
});

describe('redactExchange', () => {
  it('removes credentials from headers, bodies and the URL', () => {
    const shown = redactExchange({
      method: 'POST',
      url: 'https://h.example/mcp?api_key=sk-live-123456',
      requestHeaders: { authorization: 'Bearer abcdefghijklmnop', 'content-type': 'application/json' },
      requestBody: '{"password":"hunter22"}',
    });
    const text = JSON.stringify(shown);
    expect(text).not.toContain('abcdefghijklmnop');
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('sk-live-123456');
    expect(shown.requestHeaders['content-type']).toBe('application/json');
  });
});

describe('diagnose against real peers', () => {
  let modern: Peer;
  let legacy: Peer;
  beforeAll(async () => {
    [modern, legacy] = await Promise.all([startPeer('modern'), startPeer('sdk1-stateful-sse')]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([modern?.stop(), legacy?.stop()]);
  });

  it('a modern server: discover, no session needed, tools listed', async () => {
    const report = await diagnose(modern.url, { origin: ORIGIN });
    const outcome = Object.fromEntries(report.steps.map((step) => [step.id, step.outcome]));
    expect(outcome).toMatchObject({
      reachability: 'pass',
      protocol: 'pass',
      'session-header': 'skipped',
      'tools-list': 'pass',
    });
    expect(report.era).toBe('modern');
    expect(report.fix).toBeUndefined();
  });

  it('a legacy server: initialize, its session id read, tools listed', async () => {
    const report = await diagnose(legacy.url, { origin: ORIGIN });
    const outcome = Object.fromEntries(report.steps.map((step) => [step.id, step.outcome]));
    expect(outcome).toMatchObject({
      protocol: 'pass',
      'session-header': 'pass',
      'tools-list': 'pass',
      authorization: 'skipped',
    });
    expect(report.era).toBe('legacy');
  });

  it('nothing listening: reachability fails and every later step is skipped', async () => {
    const report = await diagnose('http://127.0.0.1:9/mcp', { origin: ORIGIN });
    expect(report.steps[0]).toMatchObject({ id: 'reachability', outcome: 'fail' });
    expect(report.steps.slice(1).every((step) => step.outcome === 'skipped')).toBe(true);
  });
});
