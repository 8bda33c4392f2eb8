/**
 * The gate in front of a server that breaks the protocol on purpose (e2e/peers/hostile.mjs), one way
 * per endpoint. Each bad answer fails its call at once with a readable error (never a timeout, never
 * an empty success), the server saw exactly one call, and the audit record says protocol-error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate } from '../../src/gate/pipeline.js';
import { createPolicy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import { connect } from '../../src/index.js';
import { InvalidResponseError } from '../../src/protocol/errors.js';
import { createSchemaValidator } from '../../src/schema/index.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startPeer('hostile');
});
afterAll(async () => {
  await peer?.stop();
});

const endpoint = (name: string) => peer.url.replace(/\/plain$/, `/${name}`);

async function gateFor(name: string) {
  const client = await connect({ url: endpoint(name), id: name });
  const audit = new MemoryAuditSink();
  const gate = createGate({
    servers: new Map([[name, client]]),
    policy: createPolicy({ store: memorySettingsStore() }),
    audit,
    validator: createSchemaValidator(),
    approver: programmaticApprover(() => ({ action: 'allow', remember: 'once' })),
  });
  return { client, gate, audit };
}

const callsAt = async (name: string) =>
  (await peer.events()).messages.filter((m) => m.method === 'tools/call' && m.path === `/mcp/${name}`).length;

describe('invalid answers fail the call at once', () => {
  it.each([
    ['both-result-error', 'both "result" and "error"'],
    ['neither-result-nor-error', 'neither "result" nor "error"'],
    ['null-result', '"result" must be an object, not null'],
    ['string-result', '"result" must be an object, not a string'],
    ['content-not-array', '"content" must be an array, not an object'],
    ['content-missing', 'no "content" array'],
  ])('%s', async (name, reason) => {
    const { client, gate, audit } = await gateFor(name);
    try {
      const error = await gate
        .call({
          serverId: name,
          toolName: 'echo',
          arguments: { message: 'hi' },
          caller: { kind: 'host', label: 'test' },
          // An idle timeout no test waits for: only the bad answer can end the call.
          timeoutMs: 600_000,
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toContain('invalid answer to tools/call');
      expect((error as Error).message).toContain(reason);
      expect(await callsAt(name)).toBe(1);
      expect(audit.entries[0]?.final).toMatchObject({
        outcome: 'protocol-error',
        error: { kind: 'invalid-response' },
      });
    } finally {
      await client.close();
    }
  });
});

describe('capabilities and names', () => {
  it('a server without the tools capability is never asked for tools', async () => {
    const { client } = await gateFor('no-tools-capability');
    try {
      expect(await client.listTools()).toEqual([]);
      const messages = (await peer.events()).messages.filter((m) => m.path === '/mcp/no-tools-capability');
      expect(messages.map((m) => m.method)).not.toContain('tools/list');
    } finally {
      await client.close();
    }
  });

  it('two different tools under one name are refused, and the server is not called', async () => {
    const { client, gate, audit } = await gateFor('duplicate-names');
    try {
      await expect(
        gate.call({
          serverId: 'duplicate-names',
          toolName: 'echo',
          arguments: { message: 'hi' },
          caller: { kind: 'person' },
        }),
      ).rejects.toThrow('2 different tools named "echo"');
      expect(await callsAt('duplicate-names')).toBe(0);
      expect(audit.entries[0]?.refusal?.outcome).toBe('denied');
    } finally {
      await client.close();
    }
  });
});
