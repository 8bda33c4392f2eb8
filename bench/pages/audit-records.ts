/**
 * What the audit benches write and how they sum it up, said once: a pending record as the gate
 * writes it (a tool among `tools` on three servers, arguments carrying `text`), and the median.
 */
import type { PendingRecord } from '../../src/gate/types.js';

/** `length` characters of prose-like text: arguments of a realistic size that compress as text does. */
export const filler = (length: number): string =>
  'lorem ipsum dolor sit amet '.repeat(Math.ceil(length / 27)).slice(0, length);

/** An invocation id unique across runs, so records of one run never meet another run's. */
export const uniqueInvocationId = (i: number): string =>
  `inv-${i.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** The pending record of call `i` at `at`, allowed by a rule, as the gate records it before sending. */
export function pendingRecord(
  i: number,
  at: number,
  shape: { invocationId: string; tools: number; text: string },
): PendingRecord {
  return {
    invocationId: shape.invocationId,
    serverId: `server-${i % 3}`,
    toolName: `tool_${i % shape.tools}`,
    definitionHash: 'sha256:0123456789abcdef',
    caller: { kind: 'host', label: 'bench' },
    proposedArguments: { i, text: shape.text },
    arguments: { i, text: shape.text },
    decision: { verdict: 'allow', source: { kind: 'rule', ruleId: 'r' }, reason: 'bench rule' },
    timestamps: { requested: at, decided: at, sent: at },
  };
}

/** The middle value (the upper one of an even count), as every audit bench reports it. */
export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
