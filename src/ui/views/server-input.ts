/**
 * What a person types or pastes into "Add server", read defensively: a URL (with or without its
 * scheme) or a configuration copied from another MCP client (`{"mcpServers": {"name": {"url": …}}}`,
 * or VS Code's `{"servers": …}`). The text is untrusted: nothing in it is run or shown as markup,
 * every address passes the same scheme allow-list (http: and https:), and what is left out is named.
 *
 * Scheme-less addresses: a loopback host (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`) becomes
 * http:// (local servers rarely have certificates, and browsers treat loopback as secure); any other
 * host becomes https:// (plain http to a remote host is typed out on purpose, never guessed).
 */

/** One server found in the input, ready for `ServerConfig` (`label` is the name a config gave it). */
interface FoundServer {
  url: string;
  label?: string;
  headers?: Record<string, string>;
}

type ServerInput = { ok: true; servers: FoundServer[]; ignored: string[] } | { ok: false; problem: string };

/** Pasted text above this is refused unread: no MCP client configuration is that long. */
const MAX_INPUT_CHARS = 100_000;
/** Servers taken from one paste; the rest are named as ignored. */
export const MAX_SERVERS = 20;
const MAX_NAME = 80;

const EXAMPLE = 'https://example.com/mcp';
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** host[:port][/path…]: a bracketed IPv6 literal or a host without spaces, slashes, colons or "@". */
const SCHEMELESS = /^(\[[0-9a-f:.]+\]|[^\s/:?#@[\]\\]+)(:\d{1,5})?([/?#].*)?$/i;

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * A server URL as the person typed it, with its scheme added when missing (see the file's note), or
 * a sentence saying what is wrong with it.
 */
export function normaliseServerUrl(input: string): { url: string } | { problem: string } {
  const text = input.trim();
  if (!text) return { problem: `Enter the server’s MCP endpoint URL, for example ${EXAMPLE}.` };
  let candidate = text;
  if (!SCHEME.test(text)) {
    const match = SCHEMELESS.exec(text);
    if (!match) {
      // `javascript:…`, `mailto:…`, `file:…` and the like: a scheme, but not one we connect to.
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
      return scheme
        ? { problem: `“${scheme.slice(0, 20)}:” addresses are not supported: use http: or https:.` }
        : { problem: `That is not a server address. Enter its MCP endpoint URL, for example ${EXAMPLE}.` };
    }
    candidate = `${isLoopback(match[1]!) ? 'http' : 'https'}://${text}`;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return {
      problem: `That is not a valid URL. Enter the server’s MCP endpoint URL, for example ${EXAMPLE}.`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: 'Only http: and https: server URLs are supported.' };
  if (!url.hostname) return { problem: `The URL names no host. For example ${EXAMPLE}.` };
  return { url: url.href };
}

/** Reads the add form's text: a configuration when it looks like JSON, otherwise one URL. */
export function readServerInput(input: string): ServerInput {
  if (input.length > MAX_INPUT_CHARS)
    return {
      ok: false,
      problem: `That is too long to be a server address or a configuration (over ${MAX_INPUT_CHARS} characters).`,
    };
  const text = input.trim();
  if (text.startsWith('{') || text.startsWith('[')) return readConfiguration(text);
  const normalised = normaliseServerUrl(text);
  if ('problem' in normalised) return { ok: false, problem: normalised.problem };
  return { ok: true, servers: [{ url: normalised.url }], ignored: [] };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A name from the configuration as it may be shown: one line, bounded. */
function shownName(name: string): string {
  // \p{Cc}: control characters (line breaks, escapes), which would break the line it is shown in.
  const line = name.replace(/\p{Cc}/gu, ' ').trim();
  return line.length > MAX_NAME ? `${line.slice(0, MAX_NAME - 1)}…` : line;
}

/** Keys of a server entry that say nothing a browser client needs (kept quiet, not reported). */
const QUIET_KEYS = new Set(['type', 'transport', 'description', 'disabled', 'enabled', 'note', 'notes']);

function readConfiguration(text: string): ServerInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `That looks like a configuration but is not valid JSON (${error instanceof Error ? error.message : 'unreadable'}).`,
    };
  }
  if (!isObject(parsed))
    return {
      ok: false,
      problem: 'A pasted configuration is an object: {"mcpServers": {"name": {"url": "…"}}}.',
    };
  const ignored: string[] = [];
  let entries: [string | undefined, unknown][];
  const listed = isObject(parsed.mcpServers)
    ? parsed.mcpServers
    : isObject(parsed.servers)
      ? parsed.servers
      : undefined;
  if (listed) {
    entries = Object.entries(listed);
    for (const key of Object.keys(parsed))
      if (key !== 'mcpServers' && key !== 'servers') ignored.push(`“${shownName(key)}” (not a server list)`);
  } else if ('url' in parsed || 'serverUrl' in parsed || 'command' in parsed) {
    entries = [[undefined, parsed]];
  } else {
    return {
      ok: false,
      problem:
        'No servers found: a configuration lists them under "mcpServers", for example {"mcpServers": {"files": {"url": "https://example.com/mcp"}}}.',
    };
  }
  const servers: FoundServer[] = [];
  for (const [name, entry] of entries) {
    const called = name === undefined ? 'the server' : `“${shownName(name)}”`;
    if (servers.length >= MAX_SERVERS) {
      ignored.push(`${called} (only ${MAX_SERVERS} servers are added at once)`);
      continue;
    }
    const found = readEntry(entry, called, ignored);
    if (!found) continue;
    const label = name === undefined ? '' : shownName(name);
    servers.push({ ...found, ...(label ? { label } : {}) });
  }
  if (servers.length === 0)
    return {
      ok: false,
      problem: `No server in it can be added here${ignored.length ? `: ${ignored.join('; ')}` : ''}.`,
    };
  return { ok: true, servers, ignored };
}

/** One server entry; what cannot be used is pushed to `ignored` with its reason. */
function readEntry(
  entry: unknown,
  called: string,
  ignored: string[],
): Omit<FoundServer, 'label'> | undefined {
  if (!isObject(entry)) {
    ignored.push(`${called} (not an object)`);
    return undefined;
  }
  const address =
    typeof entry.url === 'string'
      ? entry.url
      : typeof entry.serverUrl === 'string'
        ? entry.serverUrl
        : undefined;
  if (address === undefined) {
    ignored.push(
      typeof entry.command === 'string'
        ? `${called} (it starts a local program, which a web page cannot do: run it behind an HTTP endpoint and add that URL)`
        : `${called} (no "url")`,
    );
    return undefined;
  }
  const normalised = normaliseServerUrl(address);
  if ('problem' in normalised) {
    ignored.push(`${called} (${normalised.problem})`);
    return undefined;
  }
  const headers: Record<string, string> = {};
  if (entry.headers !== undefined) {
    if (!isObject(entry.headers)) ignored.push(`the headers of ${called} (not an object)`);
    else
      for (const [header, value] of Object.entries(entry.headers)) {
        // A header name must be a token (RFC 9110); anything else would make fetch throw later.
        if (typeof value === 'string' && /^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(header) && !/[\r\n]/.test(value))
          headers[header] = value;
        else
          ignored.push(
            `the header “${shownName(header)}” of ${called} (not a header name with a text value)`,
          );
      }
  }
  for (const key of Object.keys(entry))
    if (key !== 'url' && key !== 'serverUrl' && key !== 'headers' && !QUIET_KEYS.has(key))
      ignored.push(`“${shownName(key)}” of ${called} (not used by a browser client)`);
  return { url: normalised.url, ...(Object.keys(headers).length ? { headers } : {}) };
}
