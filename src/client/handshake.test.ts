import { describe, expect, it } from 'vitest';
import { type Responder, ScriptedTransport } from '../../test/support/scripted-transport.js';
import { META, RpcEngine, TransportError, UnsupportedServerError } from '../protocol/index.js';
import { type Introduction, initializeLegacy, probeModern, withModernMeta } from './handshake.js';

const intro: Introduction = {
  clientInfo: { name: 'toolgate-test', version: '1' },
  capabilities: {},
  timeoutMs: 5_000,
};

function engineOver(responder: Responder) {
  const transport = new ScriptedTransport(responder);
  const engine = new RpcEngine(transport, { cancellation: 'notification', reissueLostRequests: false });
  return { transport, engine };
}

describe('era selection (probeModern)', () => {
  it('is modern when server/discover lists a modern version, and reads identity and capabilities', async () => {
    const { engine, transport } = engineOver((r, peer) =>
      peer.reply(r, {
        resultType: 'complete',
        supportedVersions: ['2026-07-28', '2025-11-25'],
        capabilities: { tools: { listChanged: true } },
        instructions: 'be nice',
        _meta: { [META.serverInfo]: { name: 'srv', version: '2' } },
      }),
    );
    const outcome = await probeModern(engine, intro);
    expect(outcome).toEqual({
      era: 'modern',
      session: {
        era: 'modern',
        protocolVersion: '2026-07-28',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'srv', version: '2' },
        instructions: 'be nice',
      },
    });
    expect(transport.protocolVersion).toBe('2026-07-28');
    const [discover] = transport.sentWith('server/discover');
    expect(discover).toMatchObject({
      params: {
        _meta: {
          [META.protocolVersion]: '2026-07-28',
          [META.clientInfo]: intro.clientInfo,
          [META.clientCapabilities]: {},
        },
      },
    });
  });

  it('is legacy when a server answers discover with an empty result (as some legacy servers answer unknown methods)', async () => {
    const { engine } = engineOver((r, peer) => peer.reply(r, {}));
    expect((await probeModern(engine, intro)).era).toBe('legacy');
  });

  it('is legacy on Method not found', async () => {
    const { engine } = engineOver((r, peer) => peer.fail(r, -32601, 'Method not found'));
    expect((await probeModern(engine, intro)).era).toBe('legacy');
  });

  it('is legacy on an HTTP 400 without a modern error body', async () => {
    const { engine } = engineOver(() => {
      throw new TransportError('http://x/mcp', 'http-status', 'HTTP 400', 400);
    });
    expect((await probeModern(engine, intro)).era).toBe('legacy');
  });

  it('is legacy when UnsupportedProtocolVersion lists only legacy versions', async () => {
    const { engine } = engineOver((r, peer) =>
      peer.fail(r, -32022, 'Unsupported protocol version', { supported: ['2025-11-25'] }),
    );
    expect((await probeModern(engine, intro)).era).toBe('legacy');
  });

  it('fails clearly when the server speaks no version Toolgate speaks', async () => {
    const { engine } = engineOver((r, peer) =>
      peer.fail(r, -32022, 'Unsupported', { supported: ['2099-01-01'] }),
    );
    const error = await probeModern(engine, intro).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedServerError);
    expect((error as Error).message).toContain('2099-01-01');
  });

  it('retries once when the first choice is refused, even with the same version the server lists (SEP-2575)', async () => {
    let refused = 0;
    const { engine, transport } = engineOver((r, peer) => {
      if (refused++ === 0)
        return peer.fail(r, -32022, 'Unsupported protocol version', {
          supported: ['2026-07-28'],
          requested: '2026-07-28',
        });
      return peer.reply(r, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} });
    });
    const outcome = await probeModern(engine, intro);
    expect(outcome).toMatchObject({ era: 'modern', session: { protocolVersion: '2026-07-28' } });
    const sent = transport.sentWith('server/discover');
    expect(sent).toHaveLength(2);
    // A new request, not the same one again.
    expect((sent[0] as { id: unknown }).id).not.toBe((sent[1] as { id: unknown }).id);
  });

  it('does not retry for ever: a second refusal is the answer', async () => {
    const { engine, transport } = engineOver((r, peer) =>
      peer.fail(r, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'] }),
    );
    await expect(probeModern(engine, intro)).rejects.toThrow(/Unsupported protocol version/);
    expect(transport.sentWith('server/discover')).toHaveLength(2);
  });

  it('does not guess an era from a network failure', async () => {
    const { engine } = engineOver(() => {
      throw new TransportError('http://x/mcp', 'cors-or-network', 'could not reach http://x/mcp');
    });
    await expect(probeModern(engine, intro)).rejects.toBeInstanceOf(TransportError);
  });
});

describe('initializeLegacy', () => {
  it('negotiates, then sends notifications/initialized and sets the header version', async () => {
    const { engine, transport } = engineOver((r, peer) =>
      peer.reply(r, {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'old', version: '1' },
      }),
    );
    const session = await initializeLegacy(engine, intro);
    expect(session).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-06-18',
      serverInfo: { name: 'old' },
    });
    const methods = transport.sent.map((s) => ('method' in s.message ? s.message.method : 'reply'));
    expect(methods).toEqual(['initialize', 'notifications/initialized']);
    expect(transport.sent[0]!.message).toMatchObject({
      params: { protocolVersion: '2025-11-25', clientInfo: intro.clientInfo, capabilities: {} },
    });
    expect(transport.protocolVersion).toBe('2025-06-18');
  });

  it('refuses a version it does not speak, and closes', async () => {
    const { engine, transport } = engineOver((r, peer) =>
      peer.reply(r, { protocolVersion: '2023-01-01', capabilities: {} }),
    );
    await expect(initializeLegacy(engine, intro)).rejects.toThrow(/2023-01-01.*does not speak/);
    expect(transport.closed).toBe(true);
  });
});

describe('withModernMeta', () => {
  it('keeps caller _meta such as progressToken', () => {
    const params = withModernMeta({ name: 't', _meta: { progressToken: 5 } }, '2026-07-28', intro);
    expect(params._meta).toMatchObject({ progressToken: 5, [META.protocolVersion]: '2026-07-28' });
  });
});
