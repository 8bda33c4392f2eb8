// The demo's MCP App (SEP-1865): the tool `counter` opens a small counter, a `ui://` HTML resource,
// whose "Add 1" button calls the server's `add` tool from the app, so the demo shows what Toolgate
// does with an app's own call: the approval dialog names the app, and the audit log records it.
// The View speaks the app protocol by hand (a dozen messages over postMessage) rather than bundle
// the ext-apps SDK into the page: the resource stays a few kilobytes and readable.
import { z } from 'zod';

export const COUNTER_APP_URI = 'ui://toolgate-demo/counter.html';
const APP_MIME_TYPE = 'text/html;profile=mcp-app';

// Everything the app shows is set with textContent: the host's and the server's text is data here.
const COUNTER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Counter</title>
<style>
:root{color-scheme:light dark;font:15px/1.4 system-ui,sans-serif}
body{margin:0;padding:12px}
.count{font-size:32px;font-weight:600;margin:0 0 8px}
button{font:inherit;padding:6px 12px;border-radius:6px;border:1px solid #6b7280;cursor:pointer}
#status{margin:8px 0 0;color:#6b7280;min-height:1.4em}
</style>
</head>
<body>
<main>
<p class="count" aria-live="polite">Count: <output id="count">…</output></p>
<button id="add" type="button" disabled>Add 1 (calls the add tool)</button>
<p id="status" role="status">Waiting for the counter tool's result…</p>
</main>
<script>
(() => {
  'use strict';
  const countOut = document.getElementById('count');
  const addButton = document.getElementById('add');
  const status = document.getElementById('status');
  const host = window.parent;
  const pending = new Map();
  let nextId = 1;
  let count = 0;

  // The View cannot know its host's (or sandbox proxy's) origin: it posts to its parent with '*', as
  // every MCP App does, and takes messages only from that parent window.
  const post = (message) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const notify = (method, params) => post({ method, params });
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ id, method, params });
    });

  const show = (value) => {
    count = value;
    countOut.textContent = String(value);
  };
  const countOf = (result) => {
    const structured = result && result.structuredContent;
    if (structured && typeof structured.count === 'number') return structured.count;
    const text = result && Array.isArray(result.content) ? result.content.find((c) => c.type === 'text') : undefined;
    const parsed = text ? Number(text.text) : Number.NaN;
    return Number.isFinite(parsed) ? parsed : undefined;
  };

  const handlers = {
    'ui/notifications/tool-input': (params) => {
      const start = params && params.arguments && params.arguments.start;
      if (typeof start === 'number') show(start);
      status.textContent = 'The counter tool is running…';
    },
    'ui/notifications/tool-result': (params) => {
      const value = countOf(params);
      if (value !== undefined) show(value);
      addButton.disabled = false;
      status.textContent = 'Press Add 1: Toolgate asks you before the app may call add.';
    },
    'ui/notifications/tool-cancelled': (params) => {
      status.textContent = 'The counter tool was cancelled' + (params && params.reason ? ': ' + params.reason : '.');
    },
    'ui/notifications/host-context-changed': (params) => theme(params),
  };
  const theme = (context) => {
    if (context && (context.theme === 'light' || context.theme === 'dark'))
      document.documentElement.style.colorScheme = context.theme;
  };

  window.addEventListener('message', (event) => {
    if (event.source !== host) return;
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.id !== undefined && !message.method) {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(String(message.error.message)));
      else waiting.resolve(message.result);
      return;
    }
    if (message.method === 'ui/resource-teardown') {
      status.textContent = 'Closing…';
      post({ id: message.id, result: {} });
      return;
    }
    if (message.method === 'ping' && message.id !== undefined) return post({ id: message.id, result: {} });
    if (Object.hasOwn(handlers, message.method)) handlers[message.method](message.params);
  });

  addButton.addEventListener('click', async () => {
    addButton.disabled = true;
    status.textContent = 'Asking Toolgate to call add…';
    try {
      const result = await request('tools/call', { name: 'add', arguments: { a: count, b: 1 } });
      const value = countOf(result);
      if (value !== undefined) show(value);
      status.textContent = result && result.isError ? 'add reported an error.' : 'add answered ' + count + '.';
    } catch (error) {
      status.textContent = 'Not added: ' + error.message;
    } finally {
      addButton.disabled = false;
    }
  });

  // Tell the host how tall the app is, so its frame fits (and again whenever that changes).
  const reportSize = () =>
    notify('ui/notifications/size-changed', { height: Math.ceil(document.documentElement.getBoundingClientRect().height) });
  new ResizeObserver(reportSize).observe(document.documentElement);

  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'toolgate-demo-counter', version: '0.1.0' },
    appCapabilities: {},
  }).then(
    (answer) => {
      theme(answer && answer.hostContext);
      notify('ui/notifications/initialized', {});
    },
    (error) => {
      status.textContent = 'The host did not start the app: ' + error.message;
    },
  );
})();
</script>
</body>
</html>
`;

/** Registers the counter app (its tool and its `ui://` resource) on an SDK 1.x McpServer. */
export function registerDemoApp(server) {
  server.registerResource(
    'counter-app',
    COUNTER_APP_URI,
    {
      title: 'Counter (MCP App)',
      description: 'The counter tool’s interactive view.',
      mimeType: APP_MIME_TYPE,
    },
    async () => ({
      contents: [
        {
          uri: COUNTER_APP_URI,
          mimeType: APP_MIME_TYPE,
          text: COUNTER_HTML,
          // No network, no frames: the specification's restrictive default is all it needs.
          _meta: { ui: { prefersBorder: true } },
        },
      ],
    }),
  );

  server.registerTool(
    'counter',
    {
      title: 'Counter (MCP App)',
      description:
        'Opens a counter app starting at a number; its Add 1 button asks to call the add tool from the app.',
      inputSchema: { start: z.number().int().min(-1000).max(1000).default(0) },
      outputSchema: { count: z.number() },
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: COUNTER_APP_URI } },
    },
    async ({ start }) => ({
      content: [{ type: 'text', text: String(start) }],
      structuredContent: { count: start },
    }),
  );
}
