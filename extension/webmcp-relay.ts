/**
 * The tab's WebMCP for the extension (part of the bridge content script, isolated world), both ways:
 *   - the page's own tools: the worker lists them and sends each call (after its gate) here, which
 *     runs it with `executeTool`; they are the side panel's "This page".
 *   - the person's tools for the browser's agent, where the person let this site's agent use the
 *     tools granted to the site: registered here with `registerTool`, each call the agent makes
 *     sent to the worker, which runs it through the gate as the agent's (asked, recorded).
 * It runs only on sites the person turned on, like the bridge, and only where the browser has WebMCP
 * (feature detection; nothing is polyfilled). The port it opens is its own: the page cannot write to it.
 */

import {
  type AgentTool,
  type RelayedTool,
  type RelayMessage,
  type RelayRequest,
  WEBMCP_PORT,
  WEBMCP_RECONNECT,
} from './webmcp-protocol.js';

interface PageModelContext extends EventTarget {
  getTools(): Promise<(RelayedTool & object)[]>;
  executeTool(tool: object, input?: unknown): Promise<unknown>;
  registerTool(
    tool: {
      name: string;
      description: string;
      inputSchema?: unknown;
      annotations?: { readOnlyHint?: boolean; consequentialHint?: boolean };
      execute(input: unknown, client?: { signal?: AbortSignal }): Promise<unknown>;
    },
    options?: { signal?: AbortSignal },
  ): Promise<void>;
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
  /** Names registered here for the agent: not the page's own, so never listed as "This page". */
  const exposedNames = new Set<string>();
  let exposed: AbortController | undefined;
  const agentCalls = new Map<number, (result: unknown) => void>();
  let nextCall = 1;

  const pageTools = async () => (await context.getTools()).filter((tool) => !exposedNames.has(tool.name));

  const answer = async (request: Extract<RelayRequest, { id: number }>): Promise<unknown> => {
    const tools = await pageTools();
    if (request.op === 'list') return tools.map(describe);
    const tool = tools.find((candidate) => candidate.name === request.name);
    if (!tool) throw new Error(`The page has no tool "${request.name}" (any more).`);
    return context.executeTool(tool, request.input ?? {});
  };

  const withdraw = () => {
    exposedList = '[]';
    exposed?.abort();
    exposed = undefined;
    exposedNames.clear();
    for (const settle of agentCalls.values())
      settle({ isError: true, content: [{ type: 'text', text: 'Toolgate withdrew this tool.' }] });
    agentCalls.clear();
  };

  let exposedList = '[]';
  const expose = async (tools: AgentTool[]) => {
    // The same list again (a new port after the worker slept): the registrations stay as they are.
    const text = JSON.stringify(tools);
    if (text === exposedList) return;
    withdraw();
    exposedList = text;
    if (tools.length === 0) return;
    const registrations = new AbortController();
    exposed = registrations;
    for (const tool of tools) {
      if (exposedNames.has(tool.name)) continue;
      exposedNames.add(tool.name);
      await context
        .registerTool(
          {
            name: tool.name,
            description: tool.description,
            ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}),
            // The person's tools: consequential to the agent; the gate asks about each call anyway.
            annotations: { readOnlyHint: false, consequentialHint: true },
            execute: (input, client) =>
              new Promise((resolve) => {
                const callId = nextCall++;
                agentCalls.set(callId, resolve);
                client?.signal?.addEventListener(
                  'abort',
                  () => port?.postMessage({ event: 'agentCancel', callId } satisfies RelayMessage),
                  { once: true },
                );
                // The worker slept since: this call wakes it (a new port), which checks the grant again.
                const carrier = open();
                pendingOn.set(callId, carrier);
                carrier.postMessage({
                  event: 'agentCall',
                  callId,
                  serverId: tool.serverId,
                  toolName: tool.toolName,
                  input: input ?? {},
                } satisfies RelayMessage);
              }),
          },
          { signal: registrations.signal },
        )
        // WebMCP refused the name (a duplicate, or characters it does not take): left out.
        .catch(() => exposedNames.delete(tool.name));
    }
  };

  /** The port each agent call was sent on: a port that closes fails the calls it carried. */
  const pendingOn = new Map<number, chrome.runtime.Port>();

  const open = (): chrome.runtime.Port => {
    if (port) return port;
    const current = chrome.runtime.connect({ name: WEBMCP_PORT });
    let accepted = false;
    current.onMessage.addListener((message: unknown) => {
      const request = message as RelayRequest;
      if (request?.op === 'hello') {
        accepted = true;
        return;
      }
      if (request?.op === 'expose') return void expose(Array.isArray(request.tools) ? request.tools : []);
      if (request?.op === 'agentReply') {
        agentCalls.get(request.callId)?.(request.result);
        agentCalls.delete(request.callId);
        pendingOn.delete(request.callId);
        return;
      }
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
    current.onDisconnect.addListener(() => {
      if (port === current) port = undefined;
      // Calls this port carried get no answer now.
      for (const [callId, carrier] of [...pendingOn])
        if (carrier === current) {
          pendingOn.delete(callId);
          agentCalls.get(callId)?.({
            isError: true,
            content: [{ type: 'text', text: 'Toolgate stopped before answering; try again.' }],
          });
          agentCalls.delete(callId);
        }
      // Refused (the site was turned off): nothing stays registered for the agent. Accepted, the
      // worker only slept: the registrations stay, and the agent's next call wakes it.
      if (!accepted) withdraw();
    });
    port = current;
    return current;
  };

  // The page's tools changed: the worker lists them again (a change made by our own registrations
  // is told too, and costs one listing).
  context.addEventListener('toolchange', () =>
    port?.postMessage({ event: 'toolchange' } satisfies RelayMessage),
  );
  // A worker that starts again asks open tabs of turned-on sites to come back (background.ts).
  chrome.runtime.onMessage.addListener((message: unknown, sender) => {
    if (sender.id === chrome.runtime.id && (message as { toolgate?: unknown })?.toolgate === WEBMCP_RECONNECT)
      open();
  });
  open();
}
