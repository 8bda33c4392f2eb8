/**
 * Elicitation against real servers, through the host's onElicit: the legacy server-to-client
 * `elicitation/create` request (on the call's stream, on the standalone GET stream, or on the
 * HTTP+SSE stream) and the 2026-07-28 `input_required` round with `requestState`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { connect, type ElicitationHandler, type McpClient } from '../../src/index.js';
import type { ElicitRequestParams, ElicitResult } from '../../src/protocol/types.js';
import { firstText, PEER_CASES } from './peer-cases.js';

/** A host that answers every elicitation with the next scripted answer and keeps what it was asked. */
function scriptedHost(...answers: ElicitResult[]) {
  const asked: { request: ElicitRequestParams; serverId: string; toolName?: string }[] = [];
  const onElicit: ElicitationHandler = async (request, context) => {
    asked.push({ request, ...context });
    return answers.shift() ?? { action: 'cancel' };
  };
  return { asked, onElicit };
}

const askingPeers = PEER_CASES.filter((c) => c.recording && c.elicitation !== 'none');

describe.each(askingPeers)('$kind asks the user through onElicit', (peerCase) => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await startPeer(peerCase.kind);
  });
  afterAll(async () => {
    await peer?.stop();
  });

  async function withClient(
    host: ReturnType<typeof scriptedHost>,
    run: (client: McpClient) => Promise<void>,
  ) {
    const client = await connect({ url: peer.url, onElicit: host.onElicit });
    try {
      await run(client);
    } finally {
      await client.close();
    }
  }

  it('delivers the accepted answer to the tool', async () => {
    const host = scriptedHost({ action: 'accept', content: { name: 'Ada' } });
    await withClient(host, async (client) => {
      const result = await client.callTool('elicit', {});
      expect(firstText(result)).toBe('Hello, Ada!');
    });
    expect(host.asked).toHaveLength(1);
    expect(host.asked[0]?.request.message).toBe('What is your name?');
    const seen = await peer.events();
    const answer = seen.elicitations.at(-1)?.answer;
    expect(answer).toMatchObject({ action: 'accept', content: { name: 'Ada' } });
    if (peerCase.elicitation === 'input-required') {
      // The modern round: the retry echoed the server's state and went out as a new request.
      expect(answer?.requestState).toBe('asked-for-name');
      const calls = seen.messages.filter((m) => m.method === 'tools/call' && m.tool === 'elicit');
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(new Set(calls.map((m) => m.id)).size).toBe(calls.length);
    }
  });

  it('delivers a decline', async () => {
    const host = scriptedHost({ action: 'decline' });
    await withClient(host, async (client) => {
      expect(firstText(await client.callTool('elicit', {}))).toBe('elicitation ended: decline');
    });
  });
});

describe.each(['everything-streamable', 'everything-sse'] as const)('%s asks the user', (kind) => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await startPeer(kind);
  });
  afterAll(async () => {
    await peer?.stop();
  });

  it('gets the answer with the schema defaults the person left out filled in', async () => {
    const host = scriptedHost({ action: 'accept', content: { name: 'Ada' } });
    const client = await connect({ url: peer.url, onElicit: host.onElicit });
    try {
      // server-everything offers this tool only to clients that declared elicitation.
      const result = await client.callTool('trigger-elicitation-request', {});
      const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
      expect(text).toContain('- Name: Ada');
      // We declare elicitation.form.applyDefaults, so the integer default (42) must arrive.
      expect(text).toContain('- Favorite Integer: 42');
    } finally {
      await client.close();
    }
    expect(host.asked).toHaveLength(1);
  });
});
