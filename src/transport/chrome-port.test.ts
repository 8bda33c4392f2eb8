/**
 * The Chrome Port here is a test double: no extension runtime can run in vitest. It mimics what the
 * adapter relies on (listeners, JSON serialization, onDisconnect firing only on the other end, and
 * postMessage throwing once disconnected). The real chrome.runtime Port is tested by the extension's
 * e2e tests.
 */
import { describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, RpcEngine, TransportError } from '../protocol/index.js';
import { ChromePortTransport, type ChromeRuntimePort } from './chrome-port.js';

class FakeEvent<Listener extends (...args: never[]) => void> {
  readonly listeners = new Set<Listener>();
  addListener(listener: Listener): void {
    this.listeners.add(listener);
  }
  removeListener(listener: Listener): void {
    this.listeners.delete(listener);
  }
  fire(...args: Parameters<Listener>): void {
    for (const listener of [...this.listeners]) listener(...args);
  }
}

class FakePort implements ChromeRuntimePort {
  readonly onMessage = new FakeEvent<(message: unknown, port: ChromeRuntimePort) => void>();
  readonly onDisconnect = new FakeEvent<(port: ChromeRuntimePort) => void>();
  other: FakePort | undefined;
  connected = true;
  constructor(readonly name: string) {}

  postMessage(message: unknown): void {
    if (!this.connected) throw new Error('Attempting to use a disconnected port object');
    const other = this.other!;
    const copy: unknown = JSON.parse(JSON.stringify(message));
    setTimeout(() => other.onMessage.fire(copy, other), 0);
  }

  disconnect(): void {
    if (!this.connected) return;
    this.connected = false;
    const other = this.other!;
    other.connected = false;
    setTimeout(() => other.onDisconnect.fire(other), 0);
  }
}

function pair(name = 'mcp'): [FakePort, FakePort] {
  const a = new FakePort(name);
  const b = new FakePort(name);
  a.other = b;
  b.other = a;
  return [a, b];
}

describe('ChromePortTransport', () => {
  it('carries messages both ways and labels itself by port name', async () => {
    const [mine, theirs] = pair('toolgate-mcp');
    const transport = new ChromePortTransport(mine);
    expect(transport.label).toBe('Chrome runtime port "toolgate-mcp"');
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();

    const outbound = vi.fn();
    theirs.onMessage.addListener(outbound);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await vi.waitFor(() => expect(outbound).toHaveBeenCalledOnce());
    expect(outbound.mock.calls[0]?.[0]).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });

    theirs.postMessage({ jsonrpc: '2.0', id: 1, result: {} });
    await vi.waitFor(() => expect(received).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]));
  });

  it('holds messages that arrive before onmessage is set (Chrome would drop them)', async () => {
    const [mine, theirs] = pair();
    const transport = new ChromePortTransport(mine);
    theirs.postMessage({ n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await vi.waitFor(() => expect(received).toEqual([{ n: 1 }]));
  });

  it('fires onclose and rejects pending requests when the other end disconnects, reporting lastError', async () => {
    const [mine, theirs] = pair();
    const transport = new ChromePortTransport(mine, { lastError: () => 'Receiving end does not exist.' });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
    const onclose = new Promise<void>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve();
      };
    });
    await transport.start();
    const pending = engine.request('tools/list');
    theirs.disconnect();
    await onclose;
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(transport.closeReason).toBe('disconnected');
    expect(errors[0]).toBeInstanceOf(TransportError);
    expect(errors[0]?.message).toContain('Receiving end does not exist.');
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(TransportError);
  });

  it('close() disconnects, fires its own onclose once, and the other end hears of it', async () => {
    const [mine, theirs] = pair();
    const transport = new ChromePortTransport(mine);
    const onclose = vi.fn();
    transport.onclose = onclose;
    const heard = vi.fn();
    theirs.onDisconnect.addListener(heard);
    await transport.close();
    await transport.close();
    expect(onclose).toHaveBeenCalledOnce();
    expect(transport.closeReason).toBe('local');
    await vi.waitFor(() => expect(heard).toHaveBeenCalledOnce());
    expect(mine.onMessage.listeners.size).toBe(0);
  });

  it('turns a throwing postMessage into a TransportError', async () => {
    const [mine] = pair();
    const transport = new ChromePortTransport(mine, { label: 'side panel' });
    mine.connected = false;
    const error = await transport.send({ jsonrpc: '2.0', method: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toBe(
      'could not send to side panel: Attempting to use a disconnected port object',
    );
  });
});
