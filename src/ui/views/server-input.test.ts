/**
 * The add form's reading of what a person types or pastes: URLs with and without a scheme, the
 * configurations other MCP clients use, and (property) anything at all, which never throws and never
 * yields an address outside http: and https:.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SERVERS, normaliseServerUrl, readServerInput } from './server-input.js';

describe('normaliseServerUrl', () => {
  it('gives scheme-less loopback addresses http://', () => {
    expect(normaliseServerUrl('127.0.0.1:5391/mcp')).toEqual({ url: 'http://127.0.0.1:5391/mcp' });
    expect(normaliseServerUrl('localhost:3000/mcp')).toEqual({ url: 'http://localhost:3000/mcp' });
    expect(normaliseServerUrl('  tools.localhost/mcp ')).toEqual({ url: 'http://tools.localhost/mcp' });
    expect(normaliseServerUrl('[::1]:8080/mcp')).toEqual({ url: 'http://[::1]:8080/mcp' });
  });

  it('gives other scheme-less hosts https://', () => {
    expect(normaliseServerUrl('example.com/mcp')).toEqual({ url: 'https://example.com/mcp' });
    expect(normaliseServerUrl('mcp.example.com:8443')).toEqual({ url: 'https://mcp.example.com:8443/' });
    // Only the loopback block itself counts as local.
    expect(normaliseServerUrl('127.0.0.1.example.com/mcp')).toEqual({
      url: 'https://127.0.0.1.example.com/mcp',
    });
  });

  it('keeps a scheme that is given, and refuses every scheme but http: and https:', () => {
    expect(normaliseServerUrl('http://10.0.0.5:9000/mcp')).toEqual({ url: 'http://10.0.0.5:9000/mcp' });
    expect(normaliseServerUrl('https://example.com/mcp')).toEqual({ url: 'https://example.com/mcp' });
    for (const bad of [
      'javascript:alert(1)',
      'ftp://example.com/mcp',
      'file:///etc/passwd',
      'data:text/html,x',
      'mailto:a@b.c',
    ])
      expect(normaliseServerUrl(bad)).toMatchObject({ problem: expect.stringContaining('http') });
  });

  it('says what is wrong with what is not an address', () => {
    expect(normaliseServerUrl('')).toMatchObject({ problem: expect.stringContaining('example.com/mcp') });
    expect(normaliseServerUrl('not a url')).toMatchObject({
      problem: expect.stringContaining('not a server address'),
    });
    expect(normaliseServerUrl('localhost:99999/mcp')).toMatchObject({
      problem: expect.stringContaining('not a valid URL'),
    });
  });
});

describe('readServerInput', () => {
  it('reads a bare URL as one server', () => {
    expect(readServerInput('localhost:3000/mcp')).toEqual({
      ok: true,
      servers: [{ url: 'http://localhost:3000/mcp' }],
      ignored: [],
    });
  });

  it('reads the mcpServers shape, with names as labels and headers', () => {
    const read = readServerInput(
      JSON.stringify({
        mcpServers: {
          files: { url: 'https://files.example.com/mcp', headers: { 'X-Team': 'blue' } },
          local: { type: 'http', url: '127.0.0.1:5391/mcp' },
        },
      }),
    );
    expect(read).toEqual({
      ok: true,
      servers: [
        { url: 'https://files.example.com/mcp', label: 'files', headers: { 'X-Team': 'blue' } },
        { url: 'http://127.0.0.1:5391/mcp', label: 'local' },
      ],
      ignored: [],
    });
  });

  it('reads VS Code’s "servers" shape and a single server object', () => {
    expect(readServerInput('{"servers": {"a": {"serverUrl": "https://a.example/mcp"}}}')).toMatchObject({
      ok: true,
      servers: [{ url: 'https://a.example/mcp', label: 'a' }],
    });
    expect(readServerInput('{"url": "https://b.example/mcp"}')).toMatchObject({
      ok: true,
      servers: [{ url: 'https://b.example/mcp' }],
    });
  });

  it('names what it ignored: local programs, bad addresses, bad headers, unknown keys', () => {
    const read = readServerInput(
      JSON.stringify({
        mcpServers: {
          git: { command: 'npx', args: ['server-git'] },
          evil: { url: 'javascript:alert(1)' },
          ok: { url: 'https://ok.example/mcp', headers: { 'Bad Header': 'x', Token: 5 }, env: { A: '1' } },
        },
        inputs: [],
      }),
    );
    if (!read.ok) throw new Error(read.problem);
    expect(read.servers).toEqual([{ url: 'https://ok.example/mcp', label: 'ok' }]);
    expect(read.ignored.join('\n')).toMatch(/“git” \(it starts a local program/);
    expect(read.ignored.join('\n')).toMatch(/“evil” \(.*http/);
    expect(read.ignored.join('\n')).toContain('the header “Bad Header” of “ok”');
    expect(read.ignored.join('\n')).toContain('the header “Token” of “ok”');
    expect(read.ignored.join('\n')).toContain('“env” of “ok”');
    expect(read.ignored.join('\n')).toContain('“inputs” (not a server list)');
  });

  it('refuses what holds no usable server, saying why', () => {
    expect(readServerInput('{"mcpServers": {"git": {"command": "npx"}}}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('local program'),
    });
    expect(readServerInput('{"mcpServers": ')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not valid JSON'),
    });
    expect(readServerInput('[1, 2]')).toMatchObject({ ok: false });
    expect(readServerInput('{"hello": 1}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('mcpServers'),
    });
  });

  it('takes at most MAX_SERVERS servers from one paste', () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_SERVERS + 3 }, (_, i) => [`s${i}`, { url: `https://s${i}.example/mcp` }]),
    );
    const read = readServerInput(JSON.stringify({ mcpServers: many }));
    if (!read.ok) throw new Error(read.problem);
    expect(read.servers).toHaveLength(MAX_SERVERS);
    expect(read.ignored).toHaveLength(3);
  });

  it('never throws on any input, and every address it yields is http: or https:', () => {
    const entry = fc.record(
      {
        url: fc.oneof(
          fc.webUrl(),
          fc.string(),
          fc.constantFrom('javascript:alert(1)', 'localhost:1/x', 'data:,x'),
        ),
        serverUrl: fc.string(),
        command: fc.string(),
        headers: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())), fc.string()),
      },
      { requiredKeys: [] },
    );
    const config = fc.oneof(
      fc.record({ mcpServers: fc.dictionary(fc.string(), fc.oneof(entry, fc.anything())) }),
      fc.record({ servers: fc.dictionary(fc.string(), entry) }),
      entry,
      fc.anything(),
    );
    const input = fc.oneof(
      config.map((value) => JSON.stringify(value) ?? ''),
      fc.string(),
      fc.string().map((text) => `{${text}`),
    );
    fc.assert(
      fc.property(input, (text) => {
        const read = readServerInput(text);
        if (!read.ok) return typeof read.problem === 'string' && read.problem.length > 0;
        return (
          read.servers.length > 0 &&
          read.servers.length <= MAX_SERVERS &&
          read.servers.every((server) => /^https?:$/.test(new URL(server.url).protocol)) &&
          read.servers.every(
            (server) => !server.headers || Object.values(server.headers).every((v) => typeof v === 'string'),
          )
        );
      }),
      { numRuns: 500 },
    );
  });
});
