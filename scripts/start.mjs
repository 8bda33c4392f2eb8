// `npm start`: the demo MCP server and the demo page on one origin (127.0.0.1), so nothing else is
// needed. The pages (the demo, the in-browser server's frame, examples/agent/, the sign-in callback)
// are served by Vite in middleware mode; /mcp is the MCP endpoint. The sign-in demo adds a protected
// MCP endpoint on the same origin (/protected/mcp) and a local authorization server (oidc-provider)
// on its own port (AUTH_PORT, any free one by default).
import http from 'node:http';
import { createServer as createVite } from 'vite';
import { createDemoEndpoint } from '../src/demo/mcp-endpoint.mjs';
import { PROTECTED_PATH, startProtectedDemo } from '../src/demo/protected-demo.mjs';

const host = '127.0.0.1';
const port = Number(process.env.PORT ?? 5174);
const authPort = Number(process.env.AUTH_PORT ?? 0);

const endpoint = createDemoEndpoint();
// The demo page connects to these endpoints as well as to its in-browser server (src/demo/page.ts).
process.env.VITE_DEMO_ENDPOINT = '/mcp';
process.env.VITE_DEMO_PROTECTED_ENDPOINT = PROTECTED_PATH;
const vite = await createVite({
  server: { middlewareMode: true, hmr: false },
  appType: 'spa',
  logLevel: 'warn',
});

/** Set once the server listens (the protected resource is named by the demo's own address). */
let protectedDemo;

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', `http://${host}`).pathname;
  if (path === '/mcp') return endpoint.handle(req, res);
  if (protectedDemo?.handles(path)) return protectedDemo.handle(req, res);
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

server.listen(port, host, async () => {
  const { port: actual } = server.address();
  const origin = `http://${host}:${actual}`;
  try {
    protectedDemo = await startProtectedDemo({ origin, authPort });
  } catch (error) {
    console.error(
      error.code === 'EADDRINUSE'
        ? `Port ${authPort} is taken: run with AUTH_PORT=<another port> npm start`
        : `The sign-in demo could not start: ${error.message}`,
    );
    process.exit(1);
  }
  console.log(`MCP endpoint: ${origin}/mcp`);
  console.log(`Protected MCP endpoint: ${protectedDemo.url} (sign in with any login and password)`);
  console.log(`Authorization server: ${protectedDemo.issuer}`);
  console.log(`Toolgate demo: ${origin}/`);
});

const stop = async () => {
  await endpoint.close();
  await protectedDemo?.close();
  await vite.close();
  server.close(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
