/**
 * The demo page: the full widget, connected to the in-browser demo server (a Web Worker, so the
 * static site needs no server of ours), to `npm start`'s Node server when there is one, and to
 * any server named by `?server=<url>` (repeatable).
 */
import { defineToolgatePanel, type ServerConfig, type ToolgatePanelElement } from '../widget.js';

/** Set by scripts/start.mjs (`npm start`): the bundled Node server's endpoint on this origin. */
const nodeEndpoint = (import.meta as { env?: Record<string, string | undefined> }).env?.VITE_DEMO_ENDPOINT;

const servers: ServerConfig[] = [
  {
    id: 'demo-browser',
    label: 'Demo server (in your browser)',
    worker: () => new Worker(new URL('./browser-server.ts', import.meta.url), { type: 'module' }),
  },
];
if (nodeEndpoint)
  servers.push({
    id: 'demo',
    label: 'Demo server (npm start)',
    url: new URL(nodeEndpoint, location.href).href,
  });
for (const url of new URLSearchParams(location.search).getAll('server')) servers.push({ url });

const panel = document.getElementById('panel') as ToolgatePanelElement;
panel.options = { servers };
defineToolgatePanel();
void panel.ready.then((controller) => {
  // For the e2e tests and curious visitors (devtools): the panel's controller.
  Object.assign(window, { toolgate: controller });
});
