/**
 * The tab's WebMCP tools for the extension (part of the bridge content script, isolated world):
 * once the page has registered a tool with `document.modelContext`, a port to the worker carries
 * the list and each call the worker sends (after its gate) to `executeTool`. It runs only on sites
 * the person turned on, like the bridge; a page without WebMCP (another browser, the flag off) or
 * without tools opens nothing. Feature detection only: nothing is polyfilled.
 */

import { type RelayedTool, type RelayMessage, type RelayRequest, WEBMCP_PORT } from './webmcp-protocol.js';

interface PageModelContext extends EventTarget {
  getTools(): Promise<(RelayedTool & object)[]>;
  executeTool(tool: object, input?: unknown): Promise<unknown>;
}

function modelContext(): PageModelContext | undefined {
  const context = (document as { modelContext?: unknown }).modelContext;
  return typeof context === 'object' && context !== null && 'getTools' in context
    ? (context as PageModelContext)
    : undefined;
}

/** Only plain data crosses the port: getTools()' objects carry the registering frame's window. */
const describe = (tool: RelayedTool): RelayedTool => ({
  name: String(tool.name),
  ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
  ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
  ...(tool.inputSchema !== undefined ? { inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)) } : {}),
  ...(tool.annotations
    ? {
        annotations: {
          readOnlyHint: Boolean(tool.annotations.readOnlyHint),
          consequentialHint: Boolean(tool.annotations.consequentialHint),
          untrustedContentHint: Boolean(tool.annotations.untrustedContentHint),
        },
      }
    : {}),
  ...(typeof tool.origin === 'string' ? { origin: tool.origin } : {}),
});

export function relayPageTools(): void {
  const context = modelContext();
  if (!context) return;
  let port: chrome.runtime.Port | undefined;

  const answer = async (request: RelayRequest): Promise<unknown> => {
    const tools = await context.getTools();
    if (request.op === 'list') return tools.map(describe);
    const tool = tools.find((candidate) => candidate.name === request.name);
    if (!tool) throw new Error(`The page has no tool "${request.name}" (any more).`);
    return context.executeTool(tool, request.input ?? {});
  };

  const open = () => {
    if (port) return port;
    const current = chrome.runtime.connect({ name: WEBMCP_PORT });
    current.onMessage.addListener((message: unknown) => {
      const request = message as RelayRequest;
      if (typeof request?.id !== 'number') return;
      const reply = (payload: RelayMessage) => {
        if (port === current) current.postMessage(payload);
      };
      answer(request).then(
        (value) => reply({ id: request.id, ok: true, value: value ?? null }),
        (error: unknown) =>
          reply({ id: request.id, ok: false, error: String((error as Error)?.message ?? error) }),
      );
    });
    // The worker stopped, or the site was turned off: the next change opens a port again.
    current.onDisconnect.addListener(() => {
      if (port === current) port = undefined;
    });
    port = current;
    return current;
  };

  // A port is opened only when the page has tools, so a site without any never wakes the worker.
  const changed = () =>
    void context.getTools().then(
      (tools) => {
        if (port) port.postMessage({ event: 'toolchange' } satisfies RelayMessage);
        else if (tools.length > 0) open();
      },
      () => undefined,
    );
  context.addEventListener('toolchange', changed);
  changed();
}
