/**
 * Starts a fixture's own peer (a real SDK server in a .mjs file) as a child process and waits for
 * its `READY <url>` line; the fixtures' start-peer files add their peer's controls on top. The shared
 * launcher (support/peers.ts) knows only the shared peers.
 */
import { spawn } from 'node:child_process';

export interface ChildPeer {
  url: string;
  origin: string;
  /** The tool calls that ran on the server, with the arguments it received (its GET /__events). */
  calls(): Promise<{ tool: string; arguments: Record<string, unknown> }[]>;
  stop(): Promise<void>;
}

export function startChildPeer(script: string, name: string, timeoutMs: number): Promise<ChildPeer> {
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-10_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the ${name} peer was not ready within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${name} peer exited (${code}) before it was ready; stderr:\n${stderr}`));
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const url = /^READY (\S+)$/m.exec(stdout)?.[1];
      if (!url) return;
      clearTimeout(timer);
      const origin = new URL(url).origin;
      resolve({
        url,
        origin,
        async calls() {
          const events = (await (await fetch(`${origin}/__events`)).json()) as {
            calls: { tool: string; arguments: Record<string, unknown> }[];
          };
          return events.calls;
        },
        stop,
      });
    });
  });
}
