/**
 * Starts real MCP servers as child processes for integration and browser tests: our SDK-built peers
 * (e2e/peers/*.mjs, which print one READY line) and @modelcontextprotocol/server-everything (which
 * is ready when its port answers). Every child is killed on stop() and when the test process exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { connect as connectTcp, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type PeerKind =
  | 'sdk1-stateful-sse'
  | 'sdk1-stateful-json'
  | 'sdk1-stateless-json'
  | 'sdk1-stateless-sse'
  | 'sdk1-legacy-sse'
  | 'modern'
  | 'everything-streamable'
  | 'everything-sse'
  /** Misbehaves on purpose, one way per endpoint (e2e/peers/hostile.mjs); not a peer for normal cases. */
  | 'hostile'
  /** A catalog or questions that misbehave, one way per endpoint (e2e/peers/hostile-catalog.mjs). */
  | 'hostile-catalog'
  /** Skills (SEP-2640) on the SDK 2.x: a nested skill, a tampered file, a manifest that changes (e2e/peers/skills-server.mjs). */
  | 'skills'
  /** MCP Apps that try to reach an attacker (e2e/peers/hostile-app.mjs); needs `args` naming it. */
  | 'hostile-app'
  /** What the manual's examples use: the modern peer with read_file and the offerings (modern.mjs --read-file --offerings). */
  | 'docs-files'
  /** The SDK on Express with the `cors` middleware configured by `corsOptions` (express-cors.mjs). */
  | 'express-cors'
  /** The SDK on Hono with `hono/cors` configured by `corsOptions` (hono-cors.mjs). */
  | 'hono-cors'
  /** An OAuth-protected server and its authorization server, broken by `args` (misbehaving-auth.mjs). */
  | 'misbehaving-auth'
  /** A Worker on Node passing requests to `args`' --upstream, wrapped by a --snippet-file (workers-cors.mjs). */
  | 'workers-cors'

  /** The 2026-07-28 tasks extension, by hand from its text: no official server has it (tasks-modern.mjs). */
  | 'tasks-modern';

export const PEER_KINDS: readonly PeerKind[] = [
  'sdk1-stateful-sse',
  'sdk1-stateful-json',
  'sdk1-stateless-json',
  'sdk1-stateless-sse',
  'sdk1-legacy-sse',
  'modern',
  'everything-streamable',
  'everything-sse',
];

export interface PeerOptions {
  /** Send CORS headers (default true). Only our own peers can be told not to. */
  cors?: boolean;
  /** With CORS, still hide mcp-session-id (no Access-Control-Expose-Headers): our own peers only. */
  exposeSessionHeader?: boolean;
  /** express-cors and hono-cors: the options given to the CORS middleware (none: no CORS). */
  corsOptions?: unknown;
  /** express-cors only: answer initialize with this protocol version (broken on purpose). */
  wrongVersion?: string;
  /** How long to wait for the server to be ready. Default 20 s (a loaded machine starts node slowly). */
  readyTimeoutMs?: number;
  /** More command-line flags for our own peers (hostile-app: `--http URL --udp PORT`). */
  args?: string[];
}

/** What a peer recorded (GET /__events); see e2e/peers/common.mjs. */
export interface PeerEvents {
  messages: {
    path: string;
    method: string | null;
    id: string | number | null;
    tool?: string | null;
    protocolVersion?: string;
    /** tools/call only: the W3C trace context in its _meta, when it carried one. */
    traceparent?: string;
    tracestate?: string | null;
    headers: Record<string, string>;
  }[];
  streams: { path: string; headers: Record<string, string> }[];
  calls: { tool: string; arguments: Record<string, unknown> }[];
  cancellations: {
    via: 'notification' | 'abort';
    tool?: string;
    arguments?: Record<string, unknown>;
    requestId?: string | number | null;
    reason: string | null;
  }[];
  elicitations: { tool: string; answer: Record<string, unknown> }[];
  /** The skills peer only: every resources/read URI, in order. */
  reads?: string[];
  /** The tasks-modern peer only: per task id, what reached it about that task. */
  tasks?: Record<
    string,
    { tool: string; polls: number[]; updates: unknown[]; cancels: number; asked: Record<string, number> }
  >;
}

export interface Peer {
  kind: PeerKind;
  /** The MCP endpoint, always on 127.0.0.1. */
  url: string;
  /** True for our own peers, which record events and take control requests. */
  recording: boolean;
  events(): Promise<PeerEvents>;
  /** POSTs /__control/<name> (our sdk1-streamable and modern peers only). */
  control(
    name: 'forget-sessions' | 'add-tool' | 'rug-pull' | 'change-manifest' | 'release-pages',
  ): Promise<Record<string, unknown>>;
  /** What the server wrote on stderr, for failure messages. */
  stderr(): string;
  stop(): Promise<void>;
}

const PEERS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'peers');

interface Launch {
  command: string[];
  env?: Record<string, string>;
  /** For servers that print no READY line: the path of the endpoint on the chosen port. */
  path?: string;
  port?: number;
}

async function launchFor(kind: PeerKind, options: PeerOptions): Promise<Launch> {
  const cors = [
    ...(options.cors === false ? ['--no-cors'] : []),
    ...(options.exposeSessionHeader === false ? ['--no-expose'] : []),
  ];
  const ours = (file: string, ...flags: string[]): Launch => ({
    command: [join(PEERS_DIR, file), '--port', '0', ...flags, ...cors, ...(options.args ?? [])],
  });
  switch (kind) {
    case 'sdk1-stateful-sse':
      return ours('sdk1-streamable.mjs');
    case 'sdk1-stateful-json':
      return ours('sdk1-streamable.mjs', '--json');
    case 'sdk1-stateless-json':
      return ours('sdk1-streamable.mjs', '--stateless', '--json');
    case 'sdk1-stateless-sse':
      return ours('sdk1-streamable.mjs', '--stateless');
    case 'sdk1-legacy-sse':
      return ours('sdk1-sse.mjs');
    case 'modern':
      return ours('modern.mjs');
    case 'hostile':
      return ours('hostile.mjs');
    case 'hostile-catalog':
      return ours('hostile-catalog.mjs');
    case 'skills':
      return ours('skills-server.mjs');
    case 'tasks-modern':
      return ours('tasks-modern.mjs');
    case 'docs-files':
      return ours('modern.mjs', '--read-file', '--offerings');
    case 'express-cors':
      return {
        command: [
          join(PEERS_DIR, 'express-cors.mjs'),
          '--port',
          '0',
          ...(options.corsOptions ? ['--cors-options', JSON.stringify(options.corsOptions)] : []),
          ...(options.wrongVersion ? ['--wrong-version', options.wrongVersion] : []),
        ],
      };
    case 'hono-cors':
      return {
        command: [
          join(PEERS_DIR, 'hono-cors.mjs'),
          '--port',
          '0',
          ...(options.corsOptions ? ['--cors-options', JSON.stringify(options.corsOptions)] : []),
        ],
      };
    case 'workers-cors':
      if (options.cors === false) throw new Error('workers-cors gets its CORS from --snippet-file only');
      return ours('workers-cors.mjs');
    case 'misbehaving-auth':
      if (options.cors === false) throw new Error('misbehaving-auth breaks CORS only through its args');
      return ours('misbehaving-auth.mjs');
    case 'hostile-app':
      if (options.cors === false) throw new Error('hostile-app always sends CORS headers');
      return ours('hostile-app.mjs');
    case 'everything-streamable':
    case 'everything-sse': {
      if (options.cors === false) throw new Error(`${kind} always sends CORS headers`);
      const require = createRequire(import.meta.url);
      const bin = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
      const port = await freePort();
      const streamable = kind === 'everything-streamable';
      return {
        command: [bin, streamable ? 'streamableHttp' : 'sse'],
        env: { PORT: String(port) },
        path: streamable ? '/mcp' : '/sse',
        port,
      };
    }
  }
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A crashed or interrupted test run must not leave servers holding ports.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** Starts one peer and resolves once it accepts connections. */
export async function startPeer(kind: PeerKind, options: PeerOptions = {}): Promise<Peer> {
  installExitHook();
  const launch = await launchFor(kind, options);
  const child = spawn(process.execPath, launch.command, {
    env: { ...process.env, ...launch.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => running.delete(child));

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };

  let url: string;
  try {
    url = await whenReady(child, launch, options.readyTimeoutMs ?? 20_000, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  const origin = new URL(url).origin;
  const recording = launch.port === undefined;
  return {
    kind,
    url,
    recording,
    async events() {
      if (!recording) throw new Error(`${kind} records no events`);
      const response = await fetch(`${origin}/__events`);
      return (await response.json()) as PeerEvents;
    },
    async control(name) {
      const response = await fetch(`${origin}/__control/${name}`, { method: 'POST' });
      if (!response.ok) throw new Error(`${kind}: /__control/${name} answered ${response.status}`);
      return (await response.json()) as Record<string, unknown>;
    },
    stderr: () => stderr,
    stop,
  };
}

function whenReady(
  child: ChildProcess,
  launch: Launch,
  timeoutMs: number,
  stderr: () => string,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const name = launch.command.join(' ');
    const timer = setTimeout(
      () => finish(new Error(`${name} was not ready within ${timeoutMs} ms; stderr:\n${stderr()}`)),
      timeoutMs,
    );
    let done = false;
    const finish = (outcome: string | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (typeof outcome === 'string') resolve(outcome);
      else reject(outcome);
    };
    child.once('exit', (code, signal) =>
      finish(new Error(`${name} exited (${code ?? signal}) before it was ready; stderr:\n${stderr()}`)),
    );
    if (launch.port !== undefined) {
      const port = launch.port;
      const url = `http://127.0.0.1:${port}${launch.path ?? ''}`;
      // server-everything logs to both streams; draining stdout keeps its pipe from filling up.
      child.stdout?.resume();
      const poll = () => {
        if (done) return;
        portAnswers(port).then((answers) => (answers ? finish(url) : setTimeout(poll, 100)));
      };
      poll();
      return;
    }
    let stdout = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^READY (\S+)$/m.exec(stdout);
      if (match?.[1]) finish(match[1]);
    });
  });
}

/** Whether something accepts TCP connections on the port (a server is up). */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A port nobody listens on right now (the OS picks it; a tiny race remains, acceptable in tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
