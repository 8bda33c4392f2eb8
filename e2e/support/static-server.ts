/**
 * A plain static file server for e2e (what any static host does: files by path, index.html for a
 * directory, a content type by extension, nothing else), on 127.0.0.1 and a free port.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'vite';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export interface StaticServer {
  origin: string;
  /** Every path requested, in order. */
  requests: string[];
  stop(): Promise<void>;
}

export async function serveStatic(directory: string): Promise<StaticServer> {
  const root = resolve(directory);
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** `npm run build`'s static site (vite.config.ts), built into a temporary folder and served. */
export async function buildAndServeSite(): Promise<StaticServer> {
  const outDir = await mkdtemp(join(tmpdir(), 'toolgate-site-'));
  await build({ logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  const served = await serveStatic(outDir);
  return {
    ...served,
    async stop() {
      await served.stop();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
