import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthOriginWatch } from './auth-origins.js';

/** A real HTTP server standing in for an authorization server (it answers anything). */
let running: Server;
let asOrigin: string;
/** An origin where nothing listens (a port opened and closed again). */
let deadOrigin: string;

const listen = async () => {
  const server = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

beforeAll(async () => {
  ({ server: running, origin: asOrigin } = await listen());
  const dead = await listen();
  deadOrigin = dead.origin;
  await new Promise((resolve) => dead.server.close(resolve));
});
afterAll(() => new Promise((resolve) => running.close(resolve)));

/**
 * Node has no CORS, so the refusal itself is the one test double here: every request in cors mode
 * fails with the TypeError Chrome gives a CORS refusal; the no-cors probe goes to the real server.
 */
const refusingCors: typeof fetch = (input, init) =>
  init?.mode === 'no-cors'
    ? fetch(input, { ...init, mode: 'cors' })
    : Promise.reject(new TypeError('Failed to fetch'));

const MCP = 'http://127.0.0.1:1/mcp';

describe('authorization servers that refuse CORS (the extension offers to reach their origin)', () => {
  it('records an origin that fails but answers, naming the server, and passes the error on', async () => {
    const watch = createAuthOriginWatch(() => refusingCors);
    const fetchFor = watch.fetchFor(MCP, () => 'notes');
    await expect(fetchFor(`${asOrigin}/.well-known/oauth-authorization-server`)).rejects.toThrow(
      'Failed to fetch',
    );
    await expect(fetchFor(new Request(`${asOrigin}/token`, { method: 'POST' }))).rejects.toThrow(TypeError);
    await expect(watch.fetchFor(MCP, () => 'calendar')(`${asOrigin}/reg`)).rejects.toThrow(TypeError);
    expect(watch.refused.value).toEqual([{ origin: asOrigin, serverIds: ['notes', 'calendar'] }]);
  });

  it('leaves out the server’s own origin, an origin where nothing answers, and a request its caller aborted', async () => {
    const watch = createAuthOriginWatch(() => refusingCors);
    await expect(watch.fetchFor(`${asOrigin}/mcp`, () => 'own')(`${asOrigin}/mcp`)).rejects.toThrow();
    await expect(watch.fetchFor(MCP, () => 'down')(`${deadOrigin}/token`)).rejects.toThrow();
    const aborted = new AbortController();
    aborted.abort();
    await expect(
      watch.fetchFor(MCP, () => 'gone')(`${asOrigin}/token`, { signal: aborted.signal }),
    ).rejects.toThrow();
    // A server the controller no longer holds has no id: nothing to offer for it.
    await expect(watch.fetchFor(MCP, () => undefined)(`${asOrigin}/token`)).rejects.toThrow();
    expect(watch.refused.value).toEqual([]);
  });

  it('answers that arrive are returned as they are, and a connected server is cleared', async () => {
    const watch = createAuthOriginWatch(() => refusingCors);
    await expect(watch.fetchFor(MCP, () => 'notes')(`${asOrigin}/x`)).rejects.toThrow();
    await expect(watch.fetchFor(MCP, () => 'calendar')(`${asOrigin}/x`)).rejects.toThrow();
    watch.clear('notes');
    expect(watch.refused.value).toEqual([{ origin: asOrigin, serverIds: ['calendar'] }]);
    watch.clear('calendar');
    expect(watch.refused.value).toEqual([]);

    const open = createAuthOriginWatch(() => fetch);
    const response = await open.fetchFor(MCP, () => 'notes')(`${asOrigin}/x`);
    expect(await response.text()).toBe('{}');
    expect(open.refused.value).toEqual([]);
  });
});
