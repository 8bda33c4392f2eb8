// `npm start`: the demo MCP server and the demo page on one origin (127.0.0.1), so nothing else is
// needed. The pages (the demo, the in-browser server's frame, examples/agent/) are served by Vite in
// middleware mode; /mcp is the MCP endpoint.
import http from 'node:http';
import { createServer as createVite } from 'vite';
import { createDemoEndpoint } from '../src/demo/mcp-endpoint.mjs';

const host = '127.0.0.1';
const port = Number(process.env.PORT ?? 5174);

const endpoint = createDemoEndpoint();
// The demo page connects to this endpoint as well as to its in-browser server (src/demo/page.ts).
process.env.VITE_DEMO_ENDPOINT = '/mcp';
const vite = await createVite({
  server: { middlewareMode: true, hmr: false },
  appType: 'spa',
  logLevel: 'warn',
});

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', `http://${host}`).pathname;
  if (path === '/mcp') return endpoint.handle(req, res);
  vite.middlewares(req, res, () => res.writeHead(404).end('not found'));
});

server.on('error', (error) => {
  console.error(
    error.code === 'EADDRINUSE'
      ? `Port ${port} is taken: run with PORT=<another port> npm start`
      : String(error),
  );
  process.exit(1);
});

server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`MCP endpoint: http://${host}:${actual}/mcp`);
  console.log(`Toolgate demo: http://${host}:${actual}/`);
});

const stop = async () => {
  await endpoint.close();
  await vite.close();
  server.close(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
