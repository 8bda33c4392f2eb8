/**
 * Server lists in the formats people already have, read and written: Claude Desktop
 * (`claude_desktop_config.json`) and Claude Code (`.mcp.json`), Cursor (`mcp.json`), all under
 * `"mcpServers"`; VS Code (`mcp.json`, under `"servers"`); the MCP registry's `server.json` (its
 * `remotes`); and a plain list of URLs, one a line.
 *
 * The file is untrusted. Every entry comes back, usable or not: a browser can use only remote
 * servers (Streamable HTTP or HTTP+SSE), so a stdio entry (a program to start) is listed as skipped
 * with the reason and the way round it; an address passes the same scheme allow-list as a typed one
 * (server-input.ts). Secrets are never taken silently: header values are shown by name for the
 * person to accept, and a value that is a placeholder (`${input:token}`, `${env:KEY}`, a registry
 * header without a value) is left out, said so, for the person to enter.
 */

import { normaliseServerUrl } from './server-input.js';

type ListFormat = 'mcpServers' | 'vscode' | 'registry' | 'urls';

/** One entry of an imported list: ready to add, or skipped with the reason. */
export type ImportEntry =
  | {
      kind: 'remote';
      /** The name the file gave it (one line, bounded), if any. */
      name: string;
      url: string;
      transport: 'http' | 'sse';
      /** Headers with a value, to be sent with every request (shown by name before adding). */
      headers?: Record<string, string>;
      /** What the person should know: what was left out (with why), how it was read. */
      notes: string[];
    }
  | {
      kind: 'skipped';
      name: string;
      reason: string;
      /** A stdio entry's command line (shell-quoted), for the bridge recipe (bridgeCommand). */
      stdio?: string;
    };

type ImportResult = { ok: true; format: ListFormat; entries: ImportEntry[] } | { ok: false; problem: string };

/** Files above this are refused unread: no server list is that long. */
const MAX_LIST_CHARS = 1_000_000;
/** Entries read from one file; the rest are listed as skipped. */
export const MAX_ENTRIES = 200;
const MAX_NAME = 80;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (value: unknown): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A name from the file as it may be shown: one line, bounded. */
function shownName(name: string): string {
  const line = name.replace(/\p{Cc}/gu, ' ').trim();
  return line.length > MAX_NAME ? `${line.slice(0, MAX_NAME - 1)}…` : line;
}

/** `${input:x}`, `${env:X}`, `${X}`, `{token}`: a value the client was to fill in, not a value. */
const PLACEHOLDER = /\$\{[^}]*\}|\{[A-Za-z_][\w.-]*\}/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

const STDIO_REASON =
  'it starts a program on your computer (stdio), which a web page cannot do: run it behind an HTTP endpoint (a gateway such as supergateway) and add that URL';
/** Command lines longer than this get the reason only: a recipe nobody can read is no help. */
const MAX_COMMAND = 400;

/** A stdio entry, skipped with the reason and, when its command line is short, the recipe's command. */
function stdioEntry(name: string, words: readonly string[]): ImportEntry {
  const line = words.map(shellWord).join(' ');
  return {
    kind: 'skipped',
    name,
    reason: STDIO_REASON,
    ...(words.length && words[0] && line.length <= MAX_COMMAND ? { stdio: line } : {}),
  };
}

/** One word as a POSIX shell reads it back: bare when safe, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The bridge recipe (docs/servers.md, "A stdio server, from the browser"): supergateway runs the
 * stdio server and serves it over Streamable HTTP at http://127.0.0.1:8000/mcp, allowing only
 * `origin` (never every site: any page could then use the program's tools).
 */
export function bridgeCommand(stdio: string, origin: string): string {
  // Inside double quotes, the shell still reads " \ $ and `: escaped, the line arrives as written.
  const quoted = stdio.replace(/["\\$`]/g, '\\$&');
  return `npx -y supergateway --stdio "${quoted}" --outputTransport streamableHttp --port 8000 --cors "${origin}"`;
}

/** Where the bridge of bridgeCommand serves the server. */
export const BRIDGED_URL = 'http://127.0.0.1:8000/mcp';

/** Reads a server list in any of the formats above; which one is told by its shape. */
export function readServerList(text: string): ImportResult {
  if (text.length > MAX_LIST_CHARS)
    return {
      ok: false,
      problem: `That file is too long to be a server list (over ${MAX_LIST_CHARS} characters).`,
    };
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return { ok: false, problem: 'The file is empty: nothing to import.' };
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return readUrlList(trimmed);
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (error) {
    return {
      ok: false,
      problem: `The file is not valid JSON (${error instanceof Error ? error.message : 'unreadable'}): VS Code and Cursor allow comments, which must be removed first.`,
    };
  }
  if (!isObject(parsed))
    return {
      ok: false,
      problem:
        'A server list is an object: {"mcpServers": {…}} (Claude, Cursor), {"servers": {…}} (VS Code), or a registry server.json with "remotes".',
    };
  if (isObject(parsed.mcpServers)) return readNamed('mcpServers', parsed.mcpServers);
  if (isObject(parsed.servers)) return readNamed('vscode', parsed.servers);
  if (Array.isArray(parsed.remotes) || Array.isArray(parsed.packages)) return readRegistry(parsed);
  return {
    ok: false,
    problem:
      'No servers found: Claude and Cursor list them under "mcpServers", VS Code under "servers", a registry server.json under "remotes".',
  };
}

function readUrlList(text: string): ImportResult {
  const entries: ImportEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (entries.length >= MAX_ENTRIES) {
      entries.push({
        kind: 'skipped',
        name: shownName(line),
        reason: `only ${MAX_ENTRIES} servers are read from one file`,
      });
      break;
    }
    const normalised = normaliseServerUrl(line);
    entries.push(
      'problem' in normalised
        ? { kind: 'skipped', name: shownName(line), reason: normalised.problem }
        : { kind: 'remote', name: '', url: normalised.url, transport: 'http', notes: [] },
    );
  }
  if (entries.length === 0)
    return { ok: false, problem: 'No URLs in the file (one a line; # starts a comment).' };
  return { ok: true, format: 'urls', entries };
}

/** Claude, Cursor and VS Code: an object of named entries. */
function readNamed(format: 'mcpServers' | 'vscode', listed: { [key: string]: Json }): ImportResult {
  const entries: ImportEntry[] = [];
  for (const [key, entry] of Object.entries(listed)) {
    const name = shownName(key);
    if (entries.length >= MAX_ENTRIES) {
      entries.push({ kind: 'skipped', name, reason: `only ${MAX_ENTRIES} servers are read from one file` });
      break;
    }
    entries.push(readNamedEntry(name, entry));
  }
  if (entries.length === 0) return { ok: false, problem: 'The list names no servers.' };
  return { ok: true, format, entries };
}

function readNamedEntry(name: string, entry: Json): ImportEntry {
  if (!isObject(entry)) return { kind: 'skipped', name, reason: 'its entry is not an object' };
  const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
  const address =
    typeof entry.url === 'string'
      ? entry.url
      : typeof entry.serverUrl === 'string'
        ? entry.serverUrl
        : undefined;
  if (type === 'stdio' || (address === undefined && typeof entry.command === 'string'))
    return bridged(name, entry) ?? stdioEntry(name, commandWords(entry));
  if (address === undefined) return { kind: 'skipped', name, reason: 'it has no "url"' };
  if (type !== undefined && !['http', 'sse', 'streamable-http', 'streamablehttp'].includes(type))
    return {
      kind: 'skipped',
      name,
      reason: `its type “${shownName(type)}” is not one a browser can use (http or sse)`,
    };
  const notes: string[] = [];
  const headers = readHeaderObject(entry.headers, notes);
  return remote(name, address, type === 'sse' ? 'sse' : 'http', headers, notes);
}

/** A stdio entry's program and its arguments (the strings among them). */
function commandWords(entry: { [key: string]: Json }): string[] {
  if (typeof entry.command !== 'string') return [];
  const args = Array.isArray(entry.args) ? entry.args.filter((arg) => typeof arg === 'string') : [];
  return [entry.command, ...args];
}

/**
 * `npx mcp-remote <url>`: Claude Desktop's usual bridge to a remote server (its file starts programs
 * only). The browser connects to that URL directly; headers given to the bridge are left out.
 */
function bridged(name: string, entry: { [key: string]: Json }): ImportEntry | undefined {
  const args = Array.isArray(entry.args)
    ? entry.args.filter((arg): arg is string => typeof arg === 'string')
    : [];
  const words = [typeof entry.command === 'string' ? entry.command : '', ...args];
  if (!words.some((word) => /(^|[/@])mcp-remote(@[\w.^~-]+)?$/.test(word))) return undefined;
  const url = args.find((arg) => /^https?:\/\//i.test(arg));
  if (url === undefined) return undefined;
  const notes = ['bridged through mcp-remote in the file: connected to directly here'];
  if (args.includes('--header'))
    notes.push('left out the bridge’s --header values (enter them in Custom headers)');
  // mcp-remote's own transport choice: `--transport sse-only` is a server that speaks HTTP+SSE only.
  const sseOnly = args.some(
    (arg, i) =>
      /^--transport[= ]sse-only$/.test(arg) || (arg === '--transport' && args[i + 1] === 'sse-only'),
  );
  return remote(name, url, sseOnly ? 'sse' : 'http', {}, notes);
}

/** The registry's server.json: `remotes` are usable, `packages` are programs to run. */
function readRegistry(parsed: { [key: string]: Json }): ImportResult {
  const base =
    typeof parsed.title === 'string' ? parsed.title : typeof parsed.name === 'string' ? parsed.name : '';
  const remotes = Array.isArray(parsed.remotes) ? parsed.remotes : [];
  const packages = Array.isArray(parsed.packages) ? parsed.packages : [];
  const entries: ImportEntry[] = [];
  for (const [index, entry] of remotes.slice(0, MAX_ENTRIES).entries()) {
    const name = shownName(remotes.length > 1 ? `${base} (${index + 1})` : base);
    if (!isObject(entry)) {
      entries.push({ kind: 'skipped', name, reason: 'its remote is not an object' });
      continue;
    }
    const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : 'streamable-http';
    if (type !== 'streamable-http' && type !== 'sse') {
      entries.push({
        kind: 'skipped',
        name,
        reason: `its transport “${shownName(type)}” is not one a browser can use`,
      });
      continue;
    }
    if (typeof entry.url !== 'string') {
      entries.push({ kind: 'skipped', name, reason: 'its remote has no "url"' });
      continue;
    }
    const notes: string[] = [];
    const headers = readHeaderArray(entry.headers, notes);
    entries.push(remote(name, entry.url, type === 'sse' ? 'sse' : 'http', headers, notes));
  }
  for (const item of packages.slice(0, MAX_ENTRIES)) {
    const id = isObject(item) && typeof item.identifier === 'string' ? item.identifier : 'a package';
    // The registry's own runners for its package types: npm through npx, PyPI through uvx.
    const runner = isObject(item)
      ? { npm: ['npx', '-y'], pypi: ['uvx'] }[String(item.registryType)]
      : undefined;
    entries.push(
      stdioEntry(shownName(`${base} · ${id}`), runner && id !== 'a package' ? [...runner, id] : []),
    );
  }
  if (entries.length === 0)
    return { ok: false, problem: 'The server.json lists no remotes and no packages.' };
  return { ok: true, format: 'registry', entries };
}

function remote(
  name: string,
  address: string,
  transport: 'http' | 'sse',
  headers: Record<string, string>,
  notes: string[],
): ImportEntry {
  if (PLACEHOLDER.test(address))
    return {
      kind: 'skipped',
      name,
      reason: 'its URL has a placeholder to fill in: add it by hand with the value',
    };
  const normalised = normaliseServerUrl(address);
  if ('problem' in normalised) return { kind: 'skipped', name, reason: normalised.problem };
  return {
    kind: 'remote',
    name,
    url: normalised.url,
    transport,
    ...(Object.keys(headers).length ? { headers } : {}),
    notes,
  };
}

/** `{"Name": "value"}` (Claude Code, Cursor, VS Code). */
function readHeaderObject(value: Json | undefined, notes: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === undefined) return headers;
  if (!isObject(value)) {
    notes.push('left out its headers (not an object)');
    return headers;
  }
  for (const [name, text] of Object.entries(value)) addHeader(headers, name, text, notes);
  return headers;
}

/** `[{"name": …, "value": …, "isSecret": …}]` (the registry's server.json). */
function readHeaderArray(value: Json | undefined, notes: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === undefined) return headers;
  if (!Array.isArray(value)) {
    notes.push('left out its headers (not a list)');
    return headers;
  }
  for (const header of value) {
    if (!isObject(header) || typeof header.name !== 'string') {
      notes.push('left out a header without a name');
      continue;
    }
    addHeader(headers, header.name, header.value ?? null, notes);
  }
  return headers;
}

function addHeader(headers: Record<string, string>, name: string, value: Json, notes: string[]): void {
  const shown = shownName(name);
  if (!HEADER_NAME.test(name)) notes.push(`left out the header “${shown}” (not a header name)`);
  else if (typeof value !== 'string' || /[\r\n]/.test(value))
    notes.push(`left out the header “${shown}” (no value: enter it in Custom headers)`);
  else if (PLACEHOLDER.test(value))
    notes.push(`left out the header “${shown}” (its value is a placeholder: enter it in Custom headers)`);
  else put(headers, name, value);
}

/** `object[key] = value`, also for a key such as `__proto__`, which plain assignment would not keep. */
function put<T>(object: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** What an export needs of a server: its name, address and transport (never its headers). */
interface ExportedServer {
  name: string;
  url: string;
  /** `sse` for a server kept on the legacy HTTP+SSE transport; else Streamable HTTP (or detected). */
  transport?: 'http' | 'sse';
}

export type ExportFormat = 'vscode' | 'claude-code' | 'claude-desktop' | 'cursor' | 'urls';

/**
 * A server list in `format`. URLs come as given (the caller hides their secrets first); headers
 * are never written: a file is shared more easily than it is guarded.
 */
export function writeServerList(servers: readonly ExportedServer[], format: ExportFormat): string {
  if (format === 'urls') return `${servers.map((server) => server.url).join('\n')}\n`;
  const named: Record<string, Record<string, unknown>> = {};
  for (const server of servers)
    put(named, uniqueName(named, server.name || hostOf(server.url)), entryFor(server, format));
  const list = format === 'vscode' ? { servers: named } : { mcpServers: named };
  return `${JSON.stringify(list, null, 2)}\n`;
}

function entryFor(server: ExportedServer, format: Exclude<ExportFormat, 'urls'>): Record<string, unknown> {
  switch (format) {
    case 'vscode':
    case 'claude-code':
      return { type: server.transport === 'sse' ? 'sse' : 'http', url: server.url };
    case 'cursor':
      // Cursor tells the transport by itself (its file has no type for remote servers).
      return { url: server.url };
    case 'claude-desktop':
      // Claude Desktop's file starts programs only: the usual bridge to a remote server.
      return {
        command: 'npx',
        args: [
          '-y',
          'mcp-remote',
          server.url,
          ...(server.transport === 'sse' ? ['--transport', 'sse-only'] : []),
        ],
      };
  }
}

function uniqueName(taken: Record<string, unknown>, name: string): string {
  const has = (key: string) => Object.hasOwn(taken, key);
  if (!has(name)) return name;
  let n = 2;
  while (has(`${name} (${n})`)) n++;
  return `${name} (${n})`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
