/**
 * The doctor's authorization findings: the registration way it reports for what an authorization
 * server offers and what the host configured; headers configured for a server, sent and redacted;
 * and, against the misbehaving-auth peer (real servers; Node's fetch has no CORS, so CORS at the
 * authorization server is e2e/doctor.spec.ts), the 401 loop and metadata on the wrong path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../../e2e/support/peers.js';
import { corsFix } from './cors-fix.js';
import { diagnose } from './diagnose.js';
import { registrationVerdict } from './registration.js';
import { CONFIGURED_REDACTED, redactExchange } from './report.js';

const ORIGIN = 'https://app.example:8443';
const ISSUER = 'https://as.example/';
const identity = { clientName: 'Toolgate', redirectUri: 'https://app.example:8443/callback' };

describe('registrationVerdict', () => {
  const both = { issuer: ISSUER, dynamic: true, metadataDocument: true };
  it('takes a pre-registered client for this issuer first', () => {
    const verdict = registrationVerdict(
      both,
      { ...identity, preRegistered: [{ issuer: 'https://as.example', clientId: 'abc' }] },
      false,
    );
    expect(verdict).toMatchObject({ outcome: 'pass', chosen: 'pre-registered' });
    expect(verdict.reason).toContain('abc');
    expect(verdict.reason).toContain('Client ID Metadata Documents and Dynamic Client Registration');
  });
  it('then a metadata document when the server takes them, then dynamic registration', () => {
    const document = 'https://app.example/client.json';
    expect(registrationVerdict(both, { ...identity, metadataDocumentUrl: document }, false)).toMatchObject({
      outcome: 'pass',
      chosen: 'metadata-document',
    });
    const dynamicOnly = { ...both, metadataDocument: false };
    const verdict = registrationVerdict(dynamicOnly, { ...identity, metadataDocumentUrl: document }, false);
    expect(verdict).toMatchObject({ outcome: 'pass', chosen: 'dynamic' });
    expect(verdict.reason).toContain('does not take metadata documents');
  });
  it('fails, saying why, when no way is left', () => {
    const none = { issuer: ISSUER, dynamic: false, metadataDocument: false };
    const verdict = registrationVerdict(
      none,
      { ...identity, preRegistered: [{ issuer: 'https://other.example', clientId: 'x' }] },
      false,
    );
    expect(verdict.outcome).toBe('fail');
    expect(verdict.reason).toContain('accepts neither');
    expect(verdict.reason).toContain('belongs to https://other.example');
    const off = registrationVerdict(
      { ...none, dynamic: true },
      { ...identity, dynamicRegistration: false },
      false,
    );
    expect(off.outcome).toBe('fail');
    expect(off.reason).toContain('turned Dynamic Client Registration off');
  });
  it('without sign-in settings fails; a host signing in as itself passes', () => {
    expect(registrationVerdict(both, undefined, false).reason).toContain('no sign-in settings');
    expect(registrationVerdict(both, undefined, true)).toMatchObject({ outcome: 'pass', chosen: 'app' });
  });
});

describe('configured headers', () => {
  it('are redacted by name wherever sent and by value wherever they show', () => {
    const configured = { 'X-Team-Key': 'plainword', Authorization: 'Bearer t0ken-value' };
    const shown = redactExchange(
      {
        method: 'POST',
        url: 'https://h.example/mcp?key=plainword',
        requestHeaders: { 'x-team-key': 'plainword', authorization: 'Bearer t0ken-value' },
        responseHeaders: { 'x-echo': 'got plainword' },
        responseBody: `{"seen":"t0ken-value","padding":"${'x'.repeat(1990)}plainword"}`,
      },
      configured,
    );
    const text = JSON.stringify(shown);
    expect(text).not.toContain('plainword');
    expect(text).not.toContain('t0ken-value');
    expect(shown.requestHeaders['x-team-key']).toBe(CONFIGURED_REDACTED);
    expect(shown.responseHeaders?.['x-echo']).toBe(`got ${CONFIGURED_REDACTED}`);
  });

  it('are allowed in the fix beside Toolgate’s own, plain names only', () => {
    const fix = corsFix(ORIGIN, 'https://h.example/mcp', ['X-Team-Key', 'bad"name', 'authorization']);
    expect(fix.headers).toMatch(/Access-Control-Allow-Headers: .*last-event-id, x-team-key$/m);
    expect(fix.headers).not.toContain('bad');
    expect(fix.python).toContain('"x-team-key"');
  });
});

describe('diagnose against misbehaving authorization', () => {
  const peers: Peer[] = [];
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((peer) => peer.stop()));
  });
  const start = async (...args: string[]) => {
    const peer = await startPeer('misbehaving-auth', { args });
    peers.push(peer);
    return peer;
  };
  const outcomes = (report: Awaited<ReturnType<typeof diagnose>>) =>
    Object.fromEntries(report.steps.map((step) => [step.id, step.outcome]));
  const reason = (report: Awaited<ReturnType<typeof diagnose>>, id: string) =>
    report.steps.find((step) => step.id === id)?.reason ?? '';

  it('a sound one: 401, metadata, authorization server, and dynamic registration chosen', async () => {
    const peer = await start('--registration', 'dynamic');
    const report = await diagnose(peer.url, { origin: ORIGIN, auth: { client: identity } });
    expect(outcomes(report)).toMatchObject({
      authorization: 'pass',
      'resource-metadata': 'pass',
      'authorization-server': 'pass',
      registration: 'pass',
      'tools-list': 'skipped',
    });
    expect(reason(report, 'registration')).toContain('Dynamic Client Registration');
  }, 30_000);

  it('no way to register: the registration step fails in words', async () => {
    const peer = await start('--registration', 'none');
    const report = await diagnose(peer.url, { origin: ORIGIN, auth: { client: identity } });
    expect(outcomes(report).registration).toBe('fail');
    expect(reason(report, 'registration')).toContain('Ask the server');
  }, 30_000);

  it('metadata under the endpoint path: found there, and said where it must be', async () => {
    const peer = await start('--prm-misplaced');
    const report = await diagnose(peer.url, { origin: ORIGIN });
    expect(outcomes(report)['resource-metadata']).toBe('fail');
    const origin = new URL(peer.url).origin;
    expect(reason(report, 'resource-metadata')).toContain(
      `${origin}/mcp/.well-known/oauth-protected-resource`,
    );
    expect(reason(report, 'resource-metadata')).toContain(
      `serve it at ${origin}/.well-known/oauth-protected-resource/mcp`,
    );
    expect(outcomes(report)['authorization-server']).toBe('skipped');
  }, 30_000);

  it('a 401 loop: the token its authorization server issued is refused again, and never shown', async () => {
    const peer = await start('--refuse-tokens');
    const token = await issuedToken(peer.url);
    const report = await diagnose(peer.url, {
      origin: ORIGIN,
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(outcomes(report).authorization).toBe('fail');
    expect(reason(report, 'authorization')).toMatch(/^A 401 loop: .*\(authorization\).*invalid_token/);
    expect(JSON.stringify(report)).not.toContain(token);
    const sent = report.steps.find((step) => step.id === 'protocol')?.exchanges[0];
    expect(sent?.requestHeaders.authorization).toBe(CONFIGURED_REDACTED);
  }, 30_000);

  it('a 401 loop after a sign-in: the last error says the fresh token was refused, and the step says so', async () => {
    const peer = await start();
    const { AuthorizationError, TOKEN_REFUSED_AGAIN } = await import('../../auth/errors.js');
    const lastError = new AuthorizationError(peer.url, 'retry', `${TOKEN_REFUSED_AGAIN} (HTTP 401)`).message;
    const report = await diagnose(peer.url, { origin: ORIGIN, lastError });
    expect(outcomes(report).authorization).toBe('fail');
    expect(reason(report, 'authorization')).toMatch(/^A 401 loop: the last sign-in got a token/);
    // Without that error the same 401 is the ordinary request to sign in.
    expect(outcomes(await diagnose(peer.url, { origin: ORIGIN })).authorization).toBe('pass');
  }, 30_000);
});

/** A token from the peer's own authorization server (client credentials), as a person would paste. */
async function issuedToken(serverUrl: string): Promise<string> {
  const origin = new URL(serverUrl).origin;
  const prm = await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json();
  const token = await fetch(new URL('token', prm.authorization_servers[0]), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  expect(token.status).toBe(200);
  return (await token.json()).access_token;
}
