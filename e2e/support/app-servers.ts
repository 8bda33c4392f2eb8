/**
 * The official MCP Apps example servers from the registry, started as real child processes through
 * their own bins (Streamable HTTP on the PORT they are given, stateless, with CORS): the vanilla-JS
 * basic app (`get-time` rendered by `ui://get-time/mcp-app.html`) and the PDF server (a viewer app
 * with app-only tools). Each is killed on stop() and when the test process exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, portAnswers } from './peers.js';

export type AppServerKind = 'basic-vanillajs' | 'pdf';

export interface AppServer {
  kind: AppServerKind;
  /** The MCP endpoint on 127.0.0.1. */
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Each package and the bin it declares (its exports hide the bin's path, so it is found beside the main). */
const PACKAGES: Record<AppServerKind, { name: string; bin: string }> = {
  'basic-vanillajs': {
    name: '@modelcontextprotocol/server-basic-vanillajs',
    bin: 'mcp-server-basic-vanillajs',
  },
  pdf: { name: '@modelcontextprotocol/server-pdf', bin: 'mcp-pdf-server' },
};

/** The bin's file, as the package's own package.json names it. */
async function binOf(kind: AppServerKind): Promise<string> {
  const { name, bin } = PACKAGES[kind];
  // The main module (dist/server.js) is exported; the package root is two folders up from it.
  const root = join(dirname(createRequire(import.meta.url).resolve(name)), '..');
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const file = manifest.bin[bin];
  if (!file) throw new Error(`${name} declares no bin ${bin}`);
  return join(root, file);
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts one example server; `args` go to its bin (the PDF server takes the files it may serve). */
export async function startAppServer(kind: AppServerKind, args: string[] = []): Promise<AppServer> {
  const bin = await binOf(kind);
  const port = await freePort();
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  child.stdout?.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 20_000;
  while (!(await portAnswers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${kind} did not start on port ${port}; stderr:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { kind, url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr, stop };
}
