/**
 * Importing and exporting server lists: one fixture per format, written from each format's public
 * documentation (Claude Desktop's quickstart, Claude Code's `.mcp.json`, Cursor's `mcp.json`, VS
 * Code's `mcp.json`, the registry's `server.json`); stdio entries skipped with the reason; secrets
 * never taken silently; and (properties) any input reads without throwing and loses no entry, and
 * every export reads back to the same servers.
 */

// The fixtures hold `${…}` placeholders as the formats write them, in plain strings on purpose.
/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: placeholders of the formats, not templates */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseServerUrl } from './server-input.js';
import {
  BRIDGED_URL,
  bridgeCommand,
  type ExportFormat,
  type ImportEntry,
  MAX_ENTRIES,
  readServerList,
  writeServerList,
} from './server-lists.js';

const CLAUDE_DESKTOP = JSON.stringify({
  mcpServers: {
    filesystem: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/username/Desktop'],
    },
    linear: { command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.linear.app/sse'] },
    tokened: {
      command: 'npx',
      args: ['mcp-remote', 'https://remote.example.com/mcp', '--header', 'Authorization:${AUTH_HEADER}'],
      env: { AUTH_HEADER: 'Bearer secret-token' },
    },
  },
});

const CLAUDE_CODE = JSON.stringify({
  mcpServers: {
    asana: { type: 'sse', url: 'https://mcp.asana.com/sse' },
    notion: { type: 'http', url: 'https://mcp.notion.com/mcp' },
    'api-server': {
      type: 'http',
      url: '${API_BASE_URL:-https://api.example.com}/mcp',
      headers: { Authorization: 'Bearer ${API_KEY}' },
    },
    keyed: { type: 'http', url: 'https://keyed.example.com/mcp', headers: { 'X-API-Key': 'literal-key' } },
    airtable: {
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'airtable-mcp-server'],
      env: { AIRTABLE_API_KEY: 'x' },
    },
  },
});

const CURSOR = JSON.stringify({
  mcpServers: {
    'server-name': { url: 'http://localhost:3000/mcp', headers: { API_KEY: 'value' } },
    'local-tool': { command: 'npx', args: ['-y', 'mcp-server'], env: { API_KEY: 'value' } },
  },
});

const VSCODE = JSON.stringify({
  inputs: [{ type: 'promptString', id: 'api-key', description: 'API key', password: true }],
  servers: {
    github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
    'my-remote': {
      type: 'http',
      url: 'https://api.contoso.com/mcp',
      headers: { API_KEY: '${input:api-key}' },
    },
    fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] },
  },
});

const REGISTRY = JSON.stringify({
  $schema: 'https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json',
  name: 'io.github.example/weather',
  title: 'Weather',
  version: '1.0.2',
  remotes: [
    {
      type: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: [{ name: 'X-API-Key', description: 'Your key', isRequired: true, isSecret: true }],
    },
    { type: 'sse', url: 'https://{tenant}.example.com/sse' },
  ],
  packages: [{ registryType: 'npm', identifier: '@example/weather-mcp', transport: { type: 'stdio' } }],
});

const remotes = (entries: ImportEntry[]) => entries.filter((entry) => entry.kind === 'remote');
const skipped = (entries: ImportEntry[]) => entries.filter((entry) => entry.kind === 'skipped');

function read(text: string) {
  const result = readServerList(text);
  if (!result.ok) throw new Error(result.problem);
  return result;
}

describe('readServerList', () => {
  it('Claude Desktop: stdio entries skipped with the reason, mcp-remote bridges connected to directly', () => {
    const { format, entries } = read(CLAUDE_DESKTOP);
    expect(format).toBe('mcpServers');
    expect(entries.map((entry) => [entry.name, entry.kind])).toEqual([
      ['filesystem', 'skipped'],
      ['linear', 'remote'],
      ['tokened', 'remote'],
    ]);
    expect(skipped(entries)[0]).toMatchObject({ reason: expect.stringMatching(/stdio.*HTTP endpoint/) });
    const [linear, tokened] = remotes(entries);
    expect(linear).toMatchObject({ url: 'https://mcp.linear.app/sse' });
    // The bridge's header is not taken, and the person is told to enter it.
    expect(tokened).not.toHaveProperty('headers');
    expect(tokened!.kind === 'remote' && tokened!.notes.join(' ')).toMatch(/--header.*Custom headers/);
  });

  it('Claude Code: http and sse entries, placeholders not taken, literal headers shown by name', () => {
    const { entries } = read(CLAUDE_CODE);
    expect(entries).toHaveLength(5);
    expect(remotes(entries).map((entry) => entry.kind === 'remote' && [entry.name, entry.transport])).toEqual(
      [
        ['asana', 'sse'],
        ['notion', 'http'],
        ['keyed', 'http'],
      ],
    );
    expect(entries.find((entry) => entry.name === 'api-server')).toMatchObject({
      kind: 'skipped',
      reason: expect.stringMatching(/placeholder/),
    });
    expect(entries.find((entry) => entry.name === 'keyed')).toMatchObject({
      headers: { 'X-API-Key': 'literal-key' },
    });
    expect(entries.find((entry) => entry.name === 'airtable')).toMatchObject({ kind: 'skipped' });
  });

  it('Cursor: a url entry with its headers, a command entry skipped', () => {
    const { entries } = read(CURSOR);
    expect(entries[0]).toMatchObject({
      kind: 'remote',
      url: 'http://localhost:3000/mcp',
      headers: { API_KEY: 'value' },
    });
    expect(entries[1]).toMatchObject({ kind: 'skipped', name: 'local-tool' });
  });

  it('VS Code: "servers", an ${input:…} header left out and said so', () => {
    const { format, entries } = read(VSCODE);
    expect(format).toBe('vscode');
    expect(entries[0]).toMatchObject({
      kind: 'remote',
      name: 'github',
      url: 'https://api.githubcopilot.com/mcp/',
    });
    const remote = entries[1]!;
    expect(remote).toMatchObject({ kind: 'remote', url: 'https://api.contoso.com/mcp' });
    expect(remote).not.toHaveProperty('headers');
    expect(remote.kind === 'remote' && remote.notes.join(' ')).toMatch(/API_KEY.*placeholder/);
    expect(entries[2]).toMatchObject({ kind: 'skipped', name: 'fetch' });
  });

  it('a registry server.json: remotes usable, templates and packages skipped, secret headers asked for', () => {
    const { format, entries } = read(REGISTRY);
    expect(format).toBe('registry');
    expect(entries.map((entry) => entry.kind)).toEqual(['remote', 'skipped', 'skipped']);
    const first = entries[0]!;
    expect(first).toMatchObject({
      name: 'Weather (1)',
      url: 'https://mcp.example.com/mcp',
      transport: 'http',
    });
    expect(first.kind === 'remote' && first.notes.join(' ')).toMatch(/X-API-Key.*no value/);
    expect(entries[1]).toMatchObject({ reason: expect.stringMatching(/placeholder/) });
    expect(entries[2]).toMatchObject({
      name: 'Weather · @example/weather-mcp',
      reason: expect.stringMatching(/stdio/),
    });
  });

  it('a plain list of URLs, comments and blank lines ignored, bad lines kept as skipped', () => {
    const { format, entries } = read(
      '# mine\nhttps://a.example.com/mcp\n\nlocalhost:3000/mcp\njavascript:alert(1)\n',
    );
    expect(format).toBe('urls');
    expect(entries).toEqual([
      { kind: 'remote', name: '', url: 'https://a.example.com/mcp', transport: 'http', notes: [] },
      { kind: 'remote', name: '', url: 'http://localhost:3000/mcp', transport: 'http', notes: [] },
      { kind: 'skipped', name: 'javascript:alert(1)', reason: expect.stringMatching(/not supported/) },
    ]);
  });

  it('says clearly what is wrong with a file it cannot read', () => {
    const problem = (text: string) => {
      const result = readServerList(text);
      return result.ok ? '' : result.problem;
    };
    expect(problem('')).toMatch(/empty/);
    expect(problem('{"servers": {')).toMatch(/not valid JSON.*comments/);
    expect(problem('[1, 2]')).toMatch(/is an object/);
    expect(problem('{"tools": {}}')).toMatch(/mcpServers.*servers.*remotes/);
    expect(problem('x'.repeat(1_000_001))).toMatch(/too long/);
  });

  it('keeps a server named __proto__ as a server', () => {
    const { entries } = read('{"mcpServers": {"__proto__": {"url": "https://p.example.com/mcp"}}}');
    expect(entries).toMatchObject([{ kind: 'remote', name: '__proto__' }]);
    expect(
      JSON.parse(writeServerList([{ name: '__proto__', url: 'https://p.example.com/mcp' }], 'vscode')),
    ).toEqual({
      servers: { ['__proto__']: { type: 'http', url: 'https://p.example.com/mcp' } },
    });
  });
});

/**
 * The words a POSIX shell reads from `line`, with `npx` standing for a program that prints them:
 * what supergateway would be given, and (read again) what it would start.
 */
function shellWords(line: string): string[] {
  const script = `npx() { for word in "$@"; do printf '%s\\0' "$word"; done; }; ${line}`;
  return execFileSync('/bin/sh', ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

describe('the bridge recipe for a stdio entry', () => {
  it('names the entry’s command line, and the command serves it to this page’s origin only', () => {
    const { entries } = read(CLAUDE_DESKTOP);
    const stdio = skipped(entries)[0];
    expect(stdio).toMatchObject({
      name: 'filesystem',
      stdio: 'npx -y @modelcontextprotocol/server-filesystem /Users/username/Desktop',
    });
    const command = bridgeCommand(stdio!.kind === 'skipped' ? stdio!.stdio! : '', 'https://app.example.com');
    expect(shellWords(command)).toEqual([
      '-y',
      'supergateway',
      '--stdio',
      'npx -y @modelcontextprotocol/server-filesystem /Users/username/Desktop',
      '--outputTransport',
      'streamableHttp',
      '--port',
      '8000',
      '--cors',
      'https://app.example.com',
    ]);
    expect(BRIDGED_URL).toBe('http://127.0.0.1:8000/mcp');
    // The registry's npm package is run by npx.
    expect(read(REGISTRY).entries[2]).toMatchObject({ stdio: 'npx -y @example/weather-mcp' });
  });

  it('any arguments reach the program as the file wrote them, through both shells', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 12 }).filter((word) => !word.includes('\0')),
          {
            minLength: 0,
            maxLength: 4,
          },
        ),
        (args) => {
          const { entries } = read(JSON.stringify({ mcpServers: { x: { command: 'npx', args } } }));
          const entry = entries[0]!;
          if (entry.kind !== 'skipped' || !entry.stdio) throw new Error('no recipe');
          const given = shellWords(bridgeCommand(entry.stdio, 'http://127.0.0.1:5174'));
          expect(given.slice(0, 3)).toEqual(['-y', 'supergateway', '--stdio']);
          // supergateway starts the line through a shell: read it again as that shell does.
          expect(shellWords(given[3]!)).toEqual(args);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('writeServerList', () => {
  const servers = [
    { name: 'Files', url: 'https://files.example.com/mcp' },
    { name: 'Files', url: 'http://127.0.0.1:3000/mcp' },
  ];

  it('writes VS Code, Claude Code, Claude Desktop, Cursor and URL lists, names made unique', () => {
    expect(JSON.parse(writeServerList(servers, 'vscode'))).toEqual({
      servers: {
        Files: { type: 'http', url: 'https://files.example.com/mcp' },
        'Files (2)': { type: 'http', url: 'http://127.0.0.1:3000/mcp' },
      },
    });
    expect(JSON.parse(writeServerList(servers, 'claude-code')).mcpServers.Files).toEqual({
      type: 'http',
      url: 'https://files.example.com/mcp',
    });
    expect(JSON.parse(writeServerList(servers, 'claude-desktop')).mcpServers.Files).toEqual({
      command: 'npx',
      args: ['-y', 'mcp-remote', 'https://files.example.com/mcp'],
    });
    expect(JSON.parse(writeServerList(servers, 'cursor')).mcpServers['Files (2)']).toEqual({
      url: 'http://127.0.0.1:3000/mcp',
    });
    expect(writeServerList(servers, 'urls')).toBe(
      'https://files.example.com/mcp\nhttp://127.0.0.1:3000/mcp\n',
    );
  });

  it('keeps a legacy HTTP+SSE server’s transport through export and import', () => {
    const legacy = [{ name: 'Old', url: 'https://old.example.com/sse', transport: 'sse' as const }];
    expect(JSON.parse(writeServerList(legacy, 'vscode')).servers.Old).toEqual({
      type: 'sse',
      url: 'https://old.example.com/sse',
    });
    expect(JSON.parse(writeServerList(legacy, 'claude-desktop')).mcpServers.Old).toEqual({
      command: 'npx',
      args: ['-y', 'mcp-remote', 'https://old.example.com/sse', '--transport', 'sse-only'],
    });
    for (const format of ['vscode', 'claude-code', 'claude-desktop'] as const) {
      const read = readServerList(writeServerList(legacy, format));
      if (!read.ok) throw new Error(read.problem);
      expect(read.entries).toMatchObject([{ kind: 'remote', name: 'Old', transport: 'sse' }]);
    }
  });
});

describe('properties', () => {
  it('any text reads without throwing, and every address it yields is http: or https:', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ mcpServers: v })),
        ),
        (text) => {
          const result = readServerList(text);
          if (!result.ok) expect(result.problem.length).toBeGreaterThan(0);
          else
            for (const entry of remotes(result.entries))
              expect(entry.kind === 'remote' && new URL(entry.url).protocol).toMatch(/^https?:$/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('nothing is lost: every entry of a list comes back, usable or skipped with a reason', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue(), { maxKeys: 30 }),
        fc.constantFrom('mcpServers', 'servers'),
        (listed, key) => {
          const result = readServerList(JSON.stringify({ [key]: listed }));
          const count = Object.keys(listed).length;
          if (count === 0) {
            expect(result.ok).toBe(false);
            return;
          }
          if (!result.ok) throw new Error(result.problem);
          expect(result.entries).toHaveLength(Math.min(count, MAX_ENTRIES + 1));
          for (const entry of skipped(result.entries))
            expect(entry.kind === 'skipped' && entry.reason).toBeTruthy();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('every export reads back to the same servers (in order, but for names JSON puts first: "0")', () => {
    const name = fc
      .string({ minLength: 1, maxLength: 40 })
      .filter((text) => text === text.trim() && !/\p{Cc}/u.test(text));
    const url = fc.webUrl({ validSchemes: ['http', 'https'] }).filter((text) => !/[{}]/.test(text));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ name, url }), {
          minLength: 1,
          maxLength: 8,
          selector: (server) => server.name,
        }),
        fc.constantFrom<ExportFormat>('vscode', 'claude-code', 'claude-desktop', 'cursor', 'urls'),
        (servers, format) => {
          const result = readServerList(writeServerList(servers, format));
          if (!result.ok) throw new Error(result.problem);
          const urlOf = (text: string) => {
            const normalised = normaliseServerUrl(text);
            return 'url' in normalised ? normalised.url : undefined;
          };
          const read = result.entries.map((entry) =>
            [entry.name, entry.kind === 'remote' && entry.url].join(' '),
          );
          if (format === 'urls') expect(read).toEqual(servers.map((server) => ` ${urlOf(server.url)}`));
          // A JSON object lists integer-like keys first, whatever order they were written in.
          else
            expect(read.sort()).toEqual(
              servers.map((server) => `${server.name} ${urlOf(server.url)}`).sort(),
            );
        },
      ),
      { numRuns: 200 },
    );
  });
});
