/**
 * Client and accepting side together, in Node, over stand-in windows that deliver like browsers do
 * (asynchronously, dropped when targetOrigin does not match the page now loaded, with event.origin
 * and event.source set by the "browser"). Real windows, iframes and popups are covered in
 * e2e/post-message.spec.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, type JsonRpcMessage, RpcEngine, TransportError } from '../protocol/index.js';
import type { MessagePortTransport } from './message-port.js';
import { type OpaquePeerFrame, type PeerWindow, PostMessageClientTransport } from './post-message.js';
import { acceptPostMessageClients, type PostMessageServer } from './post-message-server.js';
import { ResponseTooLargeError } from './too-large.js';

class FakeWindow extends EventTarget {
  closed = false;
  /** targetOrigin of every post made to this window. */
  readonly targetOrigins: string[] = [];
  private readonly views = new Map<FakeWindow, PeerWindow>();

  constructor(public origin: string) {
    super();
  }

  /** This window as `sender` holds it: the same object every time, as a WindowProxy is. */
  seenFrom(sender: FakeWindow): PeerWindow {
    let view = this.views.get(sender);
    if (!view) {
      const target = this;
      view = {
        postMessage(data: unknown, targetOrigin: string, transfer: Transferable[] = []) {
          target.targetOrigins.push(targetOrigin);
          const copy = structuredClone(data);
          setTimeout(() => {
            if (target.closed || (targetOrigin !== '*' && targetOrigin !== target.origin)) return;
            target.dispatchEvent(
              Object.defineProperties(new Event('message'), {
                data: { value: copy },
                origin: { value: sender.origin },
                source: { value: sender.seenFrom(target) },
                ports: { value: transfer.filter((item) => item instanceof MessagePort) },
              }),
            );
          }, 1);
        },
        get closed() {
          return target.closed;
        },
      };
      this.views.set(sender, view);
    }
    return view;
  }

  /** Posts from `sender` to this window, as a foreign page would. */
  receiveFrom(sender: FakeWindow, data: unknown): void {
    this.seenFrom(sender).postMessage(data, this.origin);
  }
}

const APP = 'https://app.example';
const TOOLS = 'https://tools.example';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A server window answering every request with its params, except `hang`, which it never answers. */
function serve(
  window: FakeWindow,
  allowedOrigins = [APP],
  extra: Partial<Parameters<typeof acceptPostMessageClients>[0]> = {},
): { server: PostMessageServer; accepted: MessagePortTransport[]; errors: Error[] } {
  const accepted: MessagePortTransport[] = [];
  const errors: Error[] = [];
  const server = acceptPostMessageClients({
    allowedOrigins,
    self: window,
    onerror: (error) => errors.push(error),
    onConnection: (transport, client) => {
      accepted.push(transport);
      transport.onmessage = (raw) => {
        const message = raw as { id?: number; method?: string; params?: object };
        if (message.id === undefined || message.method === 'hang') return;
        const reply: JsonRpcMessage = {
          jsonrpc: '2.0',
          id: message.id,
          result: { echo: message.params ?? {}, origin: client.origin },
        };
        void transport.send(reply);
      };
      void transport.start();
    },
    ...extra,
  });
  cleanup.push(() => server.close());
  return { server, accepted, errors };
}

function client(
  app: FakeWindow,
  tools: FakeWindow,
  extra: Partial<ConstructorParameters<typeof PostMessageClientTransport>[0]> = {},
): PostMessageClientTransport {
  const transport = new PostMessageClientTransport({
    target: tools.seenFrom(app),
    targetOrigin: tools.origin,
    self: app,
    kind: 'iframe',
    ...extra,
  } as ConstructorParameters<typeof PostMessageClientTransport>[0]);
  cleanup.push(() => transport.close());
  return transport;
}

function closedOnce(transport: { onclose?: () => void }): Promise<void> {
  return new Promise((resolve) => {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      resolve();
    };
  });
}

describe('PostMessageClientTransport with acceptPostMessageClients', () => {
  it('shakes hands at the exact origin and runs JSON-RPC over the port', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const { server } = serve(tools);
    const transport = client(app, tools);
    expect(transport.label).toBe('postMessage peer https://tools.example (iframe)');
    await transport.start();
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    expect(await engine.request('echo', { a: 1 })).toEqual({ echo: { a: 1 }, origin: APP });
    // A busy machine may see the handshake retried before the first answer: every post counts.
    expect(tools.targetOrigins.length).toBeGreaterThan(0);
    expect(new Set(tools.targetOrigins)).toEqual(new Set([TOOLS]));
    expect(server.connections.size).toBe(1);
  });

  it('keeps knocking while the peer page loads, then connects', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(APP); // a fresh frame's about:blank has its creator's origin
    const transport = client(app, tools, { targetOrigin: TOOLS });
    const started = transport.start();
    await new Promise((resolve) => setTimeout(resolve, 120));
    tools.origin = TOOLS;
    serve(tools);
    await started;
    expect(tools.targetOrigins.length).toBeGreaterThan(1);
    expect(new Set(tools.targetOrigins)).toEqual(new Set([TOOLS]));
  });

  it('fails fast with a clear error when the server refuses this origin', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const { server, errors } = serve(tools, ['https://other.example']);
    const transport = client(app, tools, { handshakeTimeoutMs: 60_000 });
    const error = await transport.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).failure).toBe('origin-refused');
    expect((error as Error).message).toContain(`origin ${APP} is not on this server's allow-list`);
    expect(server.refusedConnections).toBe(1);
    expect(errors[0]?.message).toContain(APP);
  });

  it('times out with advice naming the target origin and the allow-list', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const transport = client(app, tools, { handshakeTimeoutMs: 150, channel: 'search' });
    const error = await transport.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).failure).toBe('unreachable');
    expect((error as Error).message).toMatch(
      /postMessage peer https:\/\/tools\.example \(iframe\) did not answer the Toolgate handshake within 150 ms\. Check that the page at https:\/\/tools\.example is loaded and calls acceptPostMessageClients\(\), that its allowedOrigins include this page, that it listens on channel "search"/,
    );
    await expect(transport.start()).rejects.toBe(error);
  });

  it('leaves a connect for another channel to another listener', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const { server, errors } = serve(tools, [APP], { channel: 'files' });
    const transport = client(app, tools, { handshakeTimeoutMs: 150, channel: 'search' });
    await expect(transport.start()).rejects.toThrow(/did not answer/);
    expect(server.droppedMessages + server.refusedConnections + errors.length).toBe(0);
    const matching = client(app, tools, { channel: 'files' });
    await matching.start();
  });

  it('ignores, counts and reports Toolgate-shaped messages on the window', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const evil = new FakeWindow('https://evil.example');
    serve(tools);
    const transport = client(app, tools);
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await transport.start();
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    const hanging = engine.request('hang', {}, { timeoutMs: 60_000 });
    const outcome = vi.fn();
    hanging.then(outcome, outcome);

    app.receiveFrom(evil, { jsonrpc: '2.0', id: 1, result: { forged: true } });
    app.receiveFrom(evil, { toolgate: 'mcp-goodbye' });
    app.receiveFrom(tools, { jsonrpc: '2.0', id: 1, result: { sideways: true } });
    app.receiveFrom(evil, 'unrelated host-page traffic');
    app.receiveFrom(evil, { toolgate: 'mcp-connect', version: 1 });
    await vi.waitFor(() => expect(transport.droppedMessages).toBe(3));
    expect(errors.map((e) => e.message)).toEqual([
      `ignored a message from https://evil.example while talking to ${transport.label}: it did not come from the peer window`,
      `ignored a message from https://evil.example while talking to ${transport.label}: it did not come from the peer window`,
      `ignored a message from ${TOOLS} while talking to ${transport.label}: Toolgate traffic travels on the transferred MessagePort, not on the window`,
    ]);
    expect(transport.closeReason).toBeUndefined();
    expect(engine.inFlight).toBe(1);
    expect(outcome).not.toHaveBeenCalled();
  });

  it('the server drops strangers and stray traffic, and refuses unknown handshake versions', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const other = new FakeWindow(APP);
    const { server, errors, accepted } = serve(tools, [APP], { allowedSources: [app.seenFrom(tools)] });
    tools.receiveFrom(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    tools.receiveFrom(app, { toolgate: 'mcp-connect', version: 1 }); // no port
    const stranger = new MessageChannel();
    cleanup.push(() => stranger.port1.close());
    tools.seenFrom(other).postMessage({ toolgate: 'mcp-connect', version: 1 }, TOOLS, [stranger.port2]);
    const future = new MessageChannel();
    cleanup.push(() => future.port1.close());
    const answer = new Promise<unknown>((resolve) => {
      future.port1.onmessage = (event) => resolve(event.data);
    });
    tools.seenFrom(app).postMessage({ toolgate: 'mcp-connect', version: 2 }, TOOLS, [future.port2]);
    expect(await answer).toEqual({
      toolgate: 'mcp-refused',
      reason: 'handshake version 2 is not supported; this server speaks version 1',
    });
    await vi.waitFor(() => expect(server.droppedMessages).toBe(3));
    expect(server.refusedConnections).toBe(1);
    expect(accepted).toHaveLength(0);
    expect(errors.map((e) => e.message)).toEqual([
      `ignored a message from ${APP}: only a well-formed mcp-connect travels on the window; MCP traffic belongs on the port`,
      `ignored a message from ${APP}: mcp-connect arrived without a MessagePort`,
      `ignored a message from ${APP}: it came from a window this server does not expect`,
      'refused a postMessage client: handshake version 2 is not supported; this server speaks version 1',
    ]);
  });

  it("closes on the server's goodbye and rejects pending requests with ConnectionClosedError", async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const { server } = serve(tools);
    const transport = client(app, tools);
    const closed = closedOnce(transport);
    await transport.start();
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    const pending = engine.request('hang', {}, { timeoutMs: 60_000 });
    await vi.waitFor(() => expect(server.connections.size).toBe(1));
    await server.close();
    await closed;
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(transport.closeReason).toBe('goodbye');
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(TransportError);
  });

  it('closes when the peer window closes, and tells the server', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const { accepted } = serve(tools);
    const transport = client(app, tools, { peerCheckIntervalMs: 10 });
    const closed = closedOnce(transport);
    await transport.start();
    await vi.waitFor(() => expect(accepted).toHaveLength(1));
    tools.closed = true;
    await closed;
    expect(transport.closeReason).toBe('peer-window-closed');
    await vi.waitFor(() => expect(accepted[0]?.closeReason).toBe('goodbye'));
  });

  it("the server notices a client window that closed without a goodbye, and tells the client's port", async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const { server, accepted } = serve(tools, [APP], { peerCheckIntervalMs: 10 });
    const transport = client(app, tools);
    const closed = closedOnce(transport);
    await transport.start();
    await vi.waitFor(() => expect(accepted).toHaveLength(1));
    app.closed = true;
    await vi.waitFor(() => expect(accepted[0]?.closeReason).toBe('peer-window-closed'));
    expect(server.connections.size).toBe(0);
    await closed;
    expect(transport.closeReason).toBe('goodbye');
  });

  it("close() and the client page's pagehide end the server's side", async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const { server, accepted } = serve(tools);
    const first = client(app, tools);
    const second = client(app, tools);
    await first.start();
    await second.start();
    await vi.waitFor(() => expect(server.connections.size).toBe(2));
    const onclose = vi.fn();
    first.onclose = onclose;
    await first.close();
    expect(onclose).toHaveBeenCalledOnce();
    expect(first.closeReason).toBe('local');
    await vi.waitFor(() => expect(server.connections.size).toBe(1));
    app.dispatchEvent(new Event('pagehide'));
    expect(second.closeReason).toBe('pagehide');
    await vi.waitFor(() => expect(server.connections.size).toBe(0));
    expect(accepted.map((t) => t.closeReason)).toEqual(['goodbye', 'goodbye']);
  });

  it("the server page's pagehide says goodbye to its clients", async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    serve(tools);
    const transport = client(app, tools);
    const closed = closedOnce(transport);
    await transport.start();
    tools.dispatchEvent(new Event('pagehide'));
    await closed;
    expect(transport.closeReason).toBe('goodbye');
  });

  it('refuses a bad targetOrigin at construction', () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    for (const targetOrigin of ['*', 'null', `${TOOLS}/`])
      expect(() => client(app, tools, { targetOrigin })).toThrow(TypeError);
    expect(() =>
      acceptPostMessageClients({ allowedOrigins: ['*'], onConnection: () => {}, self: tools }),
    ).toThrow(TypeError);
  });

  it("rejects sends before the handshake, and a frame that isn't attached", async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    const transport = client(app, tools);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow(/await start\(\)/);
    const detached = new PostMessageClientTransport({
      frame: { contentWindow: null },
      targetOrigin: TOOLS,
      self: app,
    });
    await expect(detached.start()).rejects.toThrow(/is the iframe attached/);
  });
});

describe('opaque sandboxed frames', () => {
  function frame(tools: FakeWindow, app: FakeWindow, sandbox: string | null): OpaquePeerFrame {
    const tokens = sandbox?.split(' ') ?? [];
    return {
      contentWindow: tools.seenFrom(app),
      sandbox: { contains: (token) => tokens.includes(token) },
      hasAttribute: (name) => name === 'sandbox' && sandbox !== null,
    };
  }

  it("posts the handshake with '*' and connects to the frame's opaque origin", async () => {
    const app = new FakeWindow(APP);
    const sandboxed = new FakeWindow('null');
    serve(sandboxed);
    const transport = new PostMessageClientTransport({
      opaqueFrame: frame(sandboxed, app, 'allow-scripts'),
      self: app,
    });
    cleanup.push(() => transport.close());
    expect(transport.label).toBe('postMessage peer with an opaque origin (sandboxed iframe)');
    await transport.start();
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    expect(await engine.request('echo', { b: 2 })).toEqual({ echo: { b: 2 }, origin: APP });
    expect(sandboxed.targetOrigins).toEqual(['*']);
  });

  it('refuses a frame that is not sandboxed, or sandboxed with allow-same-origin', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    for (const sandbox of [null, 'allow-scripts allow-same-origin']) {
      const transport = new PostMessageClientTransport({
        opaqueFrame: frame(tools, app, sandbox),
        self: app,
      });
      await expect(transport.start()).rejects.toThrow(/without allow-same-origin/);
    }
    expect(tools.targetOrigins).toEqual([]);
  });
});

describe('size cap', () => {
  it('an answer over maxMessageBytes fails its call at once, naming the peer and the method', async () => {
    const app = new FakeWindow(APP);
    const tools = new FakeWindow(TOOLS);
    serve(tools);
    const transport = client(app, tools);
    transport.applyLimits({ maxMessageBytes: 50_000 });
    await transport.start();
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    // The server echoes the params back: a big one makes a big answer.
    const error = await engine
      .request('tools/call', { text: 'x'.repeat(60_000) }, { timeoutMs: 600_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain(
      'per message): postMessage peer https://tools.example (iframe) answered tools/call',
    );
    expect(await engine.request('echo', { small: true })).toEqual({ echo: { small: true }, origin: APP });
  });
});
