/**
 * The client declares the MCP extensions it speaks by the ids in protocol/extensions.ts. The server
 * is a scripted transport (a test double): what matters is the exact `initialize` the client sends.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../test/support/scripted-transport.js';
import { UI_EXTENSION_ID, UI_MIME_TYPE } from '../protocol/index.js';
import { connect } from './connect.js';

describe('connect', () => {
  it('declares MCP Apps under capabilities.extensions, by the one id', async () => {
    const transport = new ScriptedTransport((request, peer) => {
      if (request.method === 'initialize')
        peer.reply(request, {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 'scripted', version: '1' },
        });
    });
    const client = await connect({ transport, era: 'legacy' });
    const [initialize] = transport.sentWith('initialize');
    expect(initialize).toMatchObject({
      params: { capabilities: { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } },
    });
    expect(UI_EXTENSION_ID).toBe('io.modelcontextprotocol/ui');
    await client.close();
  });
});
