import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, RpcEngine, TransportError } from '../protocol/index.js';
import { MessageInbox, MessagePortTransport } from './message-port.js';
import { ResponseTooLargeError } from './too-large.js';

const open: MessagePort[] = [];

/** A channel whose ports are closed after each test: an open Node port keeps the process alive. */
function channel(): MessageChannel {
  const pair = new MessageChannel();
  open.push(pair.port1, pair.port2);
  return pair;
}

function nextMessage(port: MessagePort): Promise<unknown> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      port.removeEventListener('message', listener);
      resolve(event.data);
    };
    port.addEventListener('message', listener);
    port.start();
  });
}

function closed(transport: { onclose?: () => void }): Promise<void> {
  return new Promise((resolve) => {
    transport.onclose = resolve;
  });
}

afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

describe('MessagePortTransport', () => {
  it('carries structured-cloned objects both ways and hands them over unvalidated', async () => {
    const { port1, port2 } = channel();
    const transport = new MessagePortTransport(port1, { label: 'test peer' });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();

    const outbound = nextMessage(port2);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping', params: { when: 1 } });
    expect(await outbound).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping', params: { when: 1 } });

    port2.postMessage({ not: 'json-rpc' });
    port2.postMessage({ jsonrpc: '2.0', id: 1, result: {} });
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received[0]).toEqual({ not: 'json-rpc' });
  });

  it('holds messages that arrive before onmessage is set, in order', async () => {
    const { port1, port2 } = channel();
    const transport = new MessagePortTransport(port1);
    await transport.start();
    port2.postMessage({ n: 1 });
    port2.postMessage({ n: 2 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    expect(received).toEqual([]); // delivered in a microtask, after the setter's caller finishes
    port2.postMessage({ n: 3 });
    await vi.waitFor(() => expect(received).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]));
  });

  it('rejects a message that cannot be cloned with a TransportError naming the peer', async () => {
    const { port1 } = channel();
    const transport = new MessagePortTransport(port1, { label: 'test peer', peer: 'https://tools.example' });
    const unclonable = { jsonrpc: '2.0', method: 'x', params: { f: () => 1 } } as never;
    const error = await transport.send(unclonable).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).url).toBe('https://tools.example');
    expect((error as Error).message).toContain('test peer');
  });

  it('close() says goodbye, fires onclose once and refuses later sends', async () => {
    const { port1, port2 } = channel();
    const transport = new MessagePortTransport(port1);
    await transport.start();
    const onclose = vi.fn();
    transport.onclose = onclose;
    const goodbye = nextMessage(port2);
    await transport.close();
    await transport.close();
    expect(await goodbye).toEqual({ toolgate: 'mcp-goodbye' });
    expect(onclose).toHaveBeenCalledTimes(1);
    expect(transport.closeReason).toBe('local');
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(TransportError);
    await expect(transport.start()).rejects.toBeInstanceOf(TransportError);
  });

  it("ends on the peer's goodbye and rejects pending engine requests with ConnectionClosedError", async () => {
    const { port1, port2 } = channel();
    const transport = new MessagePortTransport(port1, { label: 'test peer' });
    const ended = closed(transport); // before the engine, which chains the onclose it finds
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    await transport.start();
    const pending = engine.request('tools/list', {}, { timeoutMs: 5_000 });
    await nextMessage(port2);
    port2.postMessage({ toolgate: 'mcp-goodbye' });
    await ended;
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(transport.closeReason).toBe('goodbye');
  });

  it('does not treat a JSON-RPC message carrying a toolgate field as a goodbye', async () => {
    const { port1, port2 } = channel();
    const transport = new MessagePortTransport(port1);
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    port2.postMessage({ jsonrpc: '2.0', method: 'x', toolgate: 'mcp-goodbye' });
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(transport.closed).toBe(false);
  });

  it("ends with 'port-closed' when the peer's port closes without a word", async () => {
    const { port1, port2 } = channel();
    const transport = new MessagePortTransport(port1);
    const ended = closed(transport);
    await transport.start();
    port2.close();
    await ended;
    expect(transport.closeReason).toBe('port-closed');
  });

  it('end() tells the owner why before onclose', async () => {
    const { port1 } = channel();
    const order: string[] = [];
    const transport = new MessagePortTransport(port1, { onended: (reason) => order.push(`ended:${reason}`) });
    transport.onclose = () => order.push('onclose');
    await transport.start();
    transport.end('peer-window-closed');
    expect(order).toEqual(['ended:peer-window-closed', 'onclose']);
  });

  it('reports a throwing onmessage through onerror and keeps delivering', async () => {
    const { port1, port2 } = channel();
    const transport = new MessagePortTransport(port1);
    const errors: Error[] = [];
    const received: unknown[] = [];
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => {
      received.push(message);
      if (received.length === 1) throw new Error('listener broke');
    };
    await transport.start();
    port2.postMessage({ n: 1 });
    port2.postMessage({ n: 2 });
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(errors.map((e) => e.message)).toEqual(['listener broke']);
  });
});

describe('MessagePortTransport size cap', () => {
  /** A peer on the other port that answers every request with `size` characters of text. */
  function bigAnswers(port: MessagePort, size: () => number): void {
    port.addEventListener('message', (event: MessageEvent) => {
      const message = event.data as { id?: number; method?: string };
      if (message.id === undefined) return;
      port.postMessage({ jsonrpc: '2.0', id: message.id, result: { text: 'x'.repeat(size()) } });
    });
    port.start();
  }

  it('fails the call whose answer is over the cap at once, and the channel keeps working', async () => {
    const { port1, port2 } = channel();
    let size = 2_000_000;
    bigAnswers(port2, () => size);
    const transport = new MessagePortTransport(port1, { label: 'worker peer', maxMessageBytes: 1_000_000 });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    await transport.start();
    const error = await engine.request('resources/read', {}, { timeoutMs: 600_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain(
      'limit 977 KB per message): worker peer answered resources/read',
    );
    expect(errors).toEqual([]);
    size = 10;
    expect(await engine.request('resources/read', {})).toEqual({ text: 'x'.repeat(10) });
  });

  it("takes connect()'s limits through applyLimits", async () => {
    const { port1, port2 } = channel();
    bigAnswers(port2, () => 5_000);
    const transport = new MessagePortTransport(port1);
    transport.applyLimits({ maxMessageBytes: 4_000 });
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    await transport.start();
    // The engine names the server in front of the transport's own words.
    await expect(engine.request('tools/call', {})).rejects.toThrow(
      /^Server 'MessagePort peer', tools\/call: response too large \(over 4 KB, limit 4 KB per message\)/,
    );
  });
});

describe('MessageInbox', () => {
  it('keeps order when messages arrive while held ones are being flushed', async () => {
    const inbox = new MessageInbox(() => undefined);
    inbox.deliver(1);
    const received: unknown[] = [];
    inbox.listener = (message) => received.push(message);
    inbox.deliver(2); // arrives before the microtask flush of 1
    await Promise.resolve();
    inbox.deliver(3);
    expect(received).toEqual([1, 2, 3]);
  });
});
