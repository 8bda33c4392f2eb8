/** The demo's intro sentence, from the panel's state: counts and names as they are, never fixed text. */
import { describe, expect, it } from 'vitest';
import type { ServerState } from '../widget.js';
import { describeConnected } from './intro.js';

const server = (id: string, label: string, change: Partial<ServerState> = {}): ServerState => ({
  id,
  label,
  config: {},
  state: 'connected',
  trust: 'untrusted',
  tools: [],
  disabled: new Set(),
  ...change,
});

describe('describeConnected', () => {
  it('names what is connected, what waits for a sign-in and what could not connect', () => {
    const servers = [
      server('a', 'In your browser'),
      server('b', 'Node'),
      server('c', 'Protected', { state: 'connecting' }),
      server('d', 'Down', { state: 'failed', errorCause: 'down' }),
    ];
    const waiting = [
      { id: '1', serverId: 'c', issuer: 'https://as.example', scopes: [], accept() {}, decline() {} },
    ];
    expect(describeConnected(servers, waiting)).toBe(
      '2 of 4 servers are connected: In your browser and Node. Protected needs you to sign in (see Servers). Not connected: Down (see Servers).',
    );
  });

  it('says when one server is all there is, and while servers still connect', () => {
    expect(describeConnected([server('a', 'In your browser')], [])).toBe(
      '1 of 1 server is connected: In your browser.',
    );
    expect(describeConnected([server('a', 'A', { state: 'connecting' })], [])).toBe(
      'No server is connected yet (1 listed). Still connecting: A.',
    );
  });
});
