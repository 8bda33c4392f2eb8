/**
 * Gate overhead in the page: the same tool called directly through McpClient (the baseline) and
 * through the whole pipeline (resolve, validate, decide, record, send, check, record) with an allow
 * rule (no person) and an in-memory audit sink. The server is an instant in-page responder, so the
 * difference is the gate's own work. Rounds alternate so drift hits both alike.
 */
import { McpClient } from '../../src/client/client.js';
import { programmaticApprover } from '../../src/gate/approvers.js';
import { MemoryAuditSink } from '../../src/gate/memory-audit.js';
import { createGate } from '../../src/gate/pipeline.js';
import { createPolicy } from '../../src/gate/policy.js';
import { memorySettingsStore } from '../../src/gate/settings-store.js';
import { RpcEngine } from '../../src/protocol/engine.js';
import type { JsonRpcMessage } from '../../src/protocol/jsonrpc.js';
import { createSchemaValidator } from '../../src/schema/index.js';
import type { Transport } from '../../src/transport/transport.js';

const tool = {
  name: 'weather',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      days: { type: 'integer', minimum: 1, maximum: 14 },
    },
    required: ['city'],
  },
  outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] },
};

class InstantServer implements Transport {
  readonly label = 'instant in-page server';
  onmessage?: (message: unknown) => void;
  async start(): Promise<void> {}
  async close(): Promise<void> {}
  async send(message: JsonRpcMessage): Promise<void> {
    if (!('id' in message) || !('method' in message)) return;
    const result =
      message.method === 'tools/list'
        ? { tools: [tool] }
        : { content: [{ type: 'text', text: '21' }], structuredContent: { temp: 21 } };
    queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: message.id, result }));
  }
}

async function run(calls: number, rounds: number) {
  const engine = new RpcEngine(new InstantServer(), {
    cancellation: 'notification',
    reissueLostRequests: false,
  });
  const client = new McpClient(
    'bench',
    engine,
    { era: 'legacy', protocolVersion: '2025-11-25', capabilities: { tools: {} } },
    { clientInfo: { name: 'bench', version: '1' }, capabilities: {}, timeoutMs: 5_000 },
    {},
  );
  const policy = createPolicy({ store: memorySettingsStore() });
  await policy.saveRule({ verdict: 'allow', server: 'bench', tool: 'weather' });
  const gate = createGate({
    servers: new Map([['bench', client]]),
    policy,
    audit: new MemoryAuditSink(),
    validator: createSchemaValidator(),
    approver: programmaticApprover(() => ({ action: 'deny', reason: 'never asked' })),
  });
  const args = { city: 'Oslo', days: 3 };
  const direct = async () => {
    await client.callTool('weather', args);
  };
  const gated = async () => {
    await gate.call({ serverId: 'bench', toolName: 'weather', arguments: args, caller: { kind: 'host' } });
  };
  const timeBatch = async (fn: () => Promise<void>) => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) await fn();
    return ((performance.now() - start) * 1000) / calls;
  };
  for (let i = 0; i < 300; i++) {
    await direct();
    await gated();
  }
  const directUs: number[] = [];
  const gatedUs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      directUs.push(await timeBatch(direct));
      gatedUs.push(await timeBatch(gated));
    } else {
      gatedUs.push(await timeBatch(gated));
      directUs.push(await timeBatch(direct));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    directUs: median(directUs),
    gatedUs: median(gatedUs),
    overheadUs: median(gatedUs) - median(directUs),
  };
}

Object.assign(window, { runGateBench: run });
document.body.dataset.ready = 'yes';
