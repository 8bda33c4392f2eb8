import { describe, expect, it } from 'vitest';
import {
  connectMessage,
  exactOrigin,
  isConnectMessage,
  isControlLike,
  isGoodbyeMessage,
  isJsonRpcLike,
  isReadyMessage,
  isRefusedMessage,
} from './post-message-protocol.js';

describe('handshake type guards', () => {
  it('recognise well-formed control messages', () => {
    expect(isConnectMessage({ toolgate: 'mcp-connect', version: 1 })).toBe(true);
    expect(isConnectMessage({ toolgate: 'mcp-connect', version: 2, channel: 'a' })).toBe(true);
    expect(isReadyMessage({ toolgate: 'mcp-ready', version: 1 })).toBe(true);
    expect(isRefusedMessage({ toolgate: 'mcp-refused', reason: 'no' })).toBe(true);
    expect(isGoodbyeMessage({ toolgate: 'mcp-goodbye' })).toBe(true);
  });

  it('reject malformed ones', () => {
    expect(isConnectMessage({ toolgate: 'mcp-connect' })).toBe(false);
    expect(isConnectMessage({ toolgate: 'mcp-connect', version: '1' })).toBe(false);
    expect(isConnectMessage({ toolgate: 'mcp-connect', version: 1, channel: 7 })).toBe(false);
    expect(isReadyMessage({ toolgate: 'mcp-ready' })).toBe(false);
    expect(isRefusedMessage({ toolgate: 'mcp-refused' })).toBe(false);
    expect(isGoodbyeMessage({ toolgate: 'mcp-ready', version: 1 })).toBe(false);
    for (const junk of [null, undefined, 'mcp-goodbye', 1, [{ toolgate: 'mcp-goodbye' }]]) {
      expect(isGoodbyeMessage(junk)).toBe(false);
      expect(isControlLike(junk)).toBe(false);
    }
  });

  it('never read JSON-RPC traffic as control traffic', () => {
    const smuggled = { jsonrpc: '2.0', id: 1, result: {}, toolgate: 'mcp-goodbye' };
    expect(isGoodbyeMessage(smuggled)).toBe(false);
    expect(isControlLike(smuggled)).toBe(false);
    expect(isJsonRpcLike(smuggled)).toBe(true);
    expect(isJsonRpcLike({ toolgate: 'mcp-ready', version: 1 })).toBe(false);
    expect(isControlLike({ toolgate: 'something-new' })).toBe(true);
  });

  it('build the connect message with or without a channel', () => {
    expect(connectMessage()).toEqual({ toolgate: 'mcp-connect', version: 1 });
    expect(connectMessage('tools')).toEqual({ toolgate: 'mcp-connect', version: 1, channel: 'tools' });
  });
});

describe('exactOrigin', () => {
  it('accepts exact origins', () => {
    expect(exactOrigin('https://app.example')).toBe('https://app.example');
    expect(exactOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(exactOrigin('chrome-extension://abcdefghijklmnop')).toBe('chrome-extension://abcdefghijklmnop');
  });

  it.each([
    ['*', /not allowed/],
    ['null', /not allowed/],
    ['https://*.example', /not allowed/],
    ['https://app.example/', /did you mean "https:\/\/app.example"/],
    ['https://app.example/path', /did you mean/],
    ['HTTPS://APP.example', /did you mean "https:\/\/app.example"/],
    ['https://app.example:443', /did you mean "https:\/\/app.example"/],
    ['app.example', /is not an origin/],
    ['data:text/html,hi', /not an exact origin/],
  ])('refuses %s', (origin, message) => {
    expect(() => exactOrigin(origin, 'targetOrigin')).toThrow(message);
  });
});
