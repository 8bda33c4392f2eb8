/**
 * Sign-ins on the audit log: a real sign-in, refresh and sign-out against the SDK-protected MCP
 * server and its authorization server (e2e/peers/oauth-protected.mjs), each event written through
 * the gate's in-memory AuditSink as one finished entry naming the server, the authorization server
 * and the scopes, and none holding the access or refresh token the server issued.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { type ProtectedServer, startProtectedServer } from '../../e2e/peers/oauth-protected.mjs';
import { followToCallback } from '../../test/support/follow-to-callback.js';
import { memoryAuthStore, signInDeclined } from '../auth/index.js';
import { MemoryAuditSink } from '../gate/index.js';
import { clearEraCache, connect, type McpClient, signInOf } from '../index.js';
import { recordSignIns } from './sign-in-audit.js';

let server: ProtectedServer | undefined;
let client: McpClient | undefined;

afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
  await server?.close();
  server = undefined;
  clearEraCache();
});

describe('recordSignIns', () => {
  it('writes who signed in to which server, when, and how it ended; never a token', async () => {
    server = await startProtectedServer({ refreshTokens: true });
    const sink = new MemoryAuditSink();
    const failures: unknown[] = [];
    const record = recordSignIns(sink, { serverId: 'files', onError: (error) => failures.push(error) });
    client = await connect({
      url: server.url,
      auth: {
        client: { clientName: 'Toolgate test', redirectUri: 'http://127.0.0.1:9/callback' },
        authorize: followToCallback,
        store: memoryAuthStore(),
        onEvent: record,
      },
    });
    server.expireAccessTokens();
    await client.callTool('whoami', {});
    await signInOf(client)?.signOut();
    await record.flushed();

    expect(failures).toEqual([]);
    const entries = sink.entries;
    expect(entries.map((entry) => entry.pending?.toolName)).toEqual([
      'auth/sign-in',
      'auth/refresh',
      'auth/sign-out',
    ]);
    expect(entries.every((entry) => entry.pending?.serverId === 'files')).toBe(true);
    expect(entries.every((entry) => entry.final?.outcome === 'success')).toBe(true);
    expect(entries[0]?.pending?.arguments).toEqual({
      server: server.url,
      issuer: server.issuer,
      scopes: ['mcp:tools'],
      client: 'dynamic',
    });
    expect(entries[0]?.pending?.caller).toEqual({ kind: 'person' });
    expect(entries[1]?.pending?.caller.kind).toBe('host');
    expect(entries[2]?.pending?.arguments).toMatchObject({ revoked: true });
    const written = JSON.stringify(entries);
    const tokens = server.seen.mcp.flatMap((request) =>
      request.authorization ? [request.authorization.slice('Bearer '.length)] : [],
    );
    expect(tokens.length).toBeGreaterThan(1);
    for (const token of tokens) expect(written).not.toContain(token);
  });

  it('writes a failed sign-in with its step and reason', async () => {
    server = await startProtectedServer();
    const sink = new MemoryAuditSink();
    const record = recordSignIns(sink, { serverId: 'files' });
    await connect({
      url: server.url,
      auth: {
        client: { clientName: 'Toolgate test', redirectUri: 'http://127.0.0.1:9/callback' },
        authorize: async () => {
          throw new Error('consent denied by the test');
        },
        store: memoryAuthStore(),
        onEvent: record,
      },
    }).catch(() => undefined);
    await record.flushed();

    expect(sink.entries).toHaveLength(1);
    expect(sink.entries[0]?.pending?.toolName).toBe('auth/sign-in-failed');
    expect(sink.entries[0]?.final?.outcome).toBe('protocol-error');
    expect(sink.entries[0]?.final?.error?.kind).toBe('sign-in: authorization');
    expect(sink.entries[0]?.final?.error?.message).toContain('consent denied by the test');
  });

  it('writes a declined sign-in ("Not now") as the person’s refusal, not as a failure', async () => {
    server = await startProtectedServer();
    const sink = new MemoryAuditSink();
    const record = recordSignIns(sink, { serverId: 'files' });
    await connect({
      url: server.url,
      auth: {
        client: { clientName: 'Toolgate test', redirectUri: 'http://127.0.0.1:9/callback' },
        authorize: async () => {
          throw signInDeclined('You chose not to sign in to files now.');
        },
        store: memoryAuthStore(),
        onEvent: record,
      },
    }).catch(() => undefined);
    await record.flushed();

    expect(sink.entries).toHaveLength(1);
    const [entry] = sink.entries;
    expect(entry?.refusal?.toolName).toBe('auth/sign-in-declined');
    expect(entry?.refusal?.outcome).toBe('denied');
    expect(entry?.refusal?.caller).toEqual({ kind: 'person' });
    expect(entry?.refusal?.decision?.verdict).toBe('deny');
    expect(entry?.refusal?.reason).toBe('You chose not to sign in (Not now)');
    expect(JSON.stringify(entry)).not.toContain('sign-in-failed');
  });
});
