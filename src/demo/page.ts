/**
 * The demo page: the full widget, connected to the in-browser demo server (a Web Worker, so the
 * static site needs no server of ours), to `npm start`'s Node servers when there are (the open one
 * and the one that requires signing in). A link's `?server=<url>` (repeatable) offers to add those
 * servers, asking the person first (deep-link.ts); servers added are kept for the next visit, and
 * sign in when they ask. Where the browser has WebMCP, the page offers its agent two tools
 * of its own through the gate (agent-tools.ts).
 */
import { defineToolgatePanel, type ServerConfig, type ToolgatePanelElement } from '../widget.js';
import { offerDemoToolsToAgent } from './agent-tools.js';
import { describeConnected } from './intro.js';
import { demoSignIn } from './sign-in.js';

const env = (import.meta as { env?: Record<string, string | undefined> }).env;
/** Set by scripts/start.mjs (`npm start`): the bundled Node servers' endpoints on this origin. */
const nodeEndpoint = env?.VITE_DEMO_ENDPOINT;
const protectedEndpoint = env?.VITE_DEMO_PROTECTED_ENDPOINT;

/**
 * A server config that signs in when the server asks (ServerConfig.auth): the panel asks the person
 * "Sign in to <server>?" and opens the sign-in window from their click.
 */
function signingIn(config: ServerConfig): ServerConfig {
  const withAuth = { ...config, auth: demoSignIn() };
  return withAuth;
}

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
if (protectedEndpoint)
  servers.push(
    signingIn({
      id: 'demo-protected',
      label: 'Protected demo (npm start, sign-in)',
      url: new URL(protectedEndpoint, location.href).href,
    }),
  );

const panel = document.getElementById('panel') as ToolgatePanelElement;
// The demo lands on Tools: a first call is one pick and one click away (the intro suggests one).
// Servers the person added on an earlier visit come back able to sign in, as when first added.
panel.options = { servers, startTab: 'tools', keepServers: { prepare: signingIn } };
defineToolgatePanel();
void panel.ready.then((controller) => {
  // For the e2e tests and curious visitors (devtools): the panel's controller.
  Object.assign(window, { toolgate: controller });
  // A link naming servers: asked about, never connected to before the person says so.
  if (new URLSearchParams(location.search).has('server'))
    void import('./deep-link.js').then(({ offerLinkedServers }) => offerLinkedServers(controller, signingIn));
  // The intro says what is connected from the live state, never from fixed text.
  const intro = document.getElementById('demo-connected');
  if (intro)
    controller.servers.subscribe((states) => {
      intro.textContent = describeConnected(states, controller.signIns?.value ?? []);
    });
  controller.signIns?.subscribe((pending) => {
    if (intro) intro.textContent = describeConnected(controller.servers.value, pending);
  });
  // Where the browser has WebMCP, the page's own tools for its agent, through the gate.
  offerDemoToolsToAgent(controller).catch((error: unknown) =>
    console.warn('The demo could not offer its tools to the browser’s agent:', error),
  );
});
