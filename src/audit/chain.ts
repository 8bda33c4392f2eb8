/**
 * The audit log's tamper evidence: every stored event carries the SHA-256 of its canonical form,
 * which includes the previous event's hash. Changing, removing or reordering any event breaks the
 * chain from that point; verifyChain reports the first break. After pruning, verification starts
 * from a checkpoint (the last pruned event's seq and hash) instead of the genesis value.
 */

import { canonicalJson, sha256Hex } from '../protocol/canonical-json.js';
import type { JsonObject } from '../protocol/jsonrpc.js';

export type ChainEventKind = 'pending' | 'resent' | 'final' | 'refusal' | 'interrupted';

/** One append-only event of the log. */
export interface ChainEvent {
  /** Position in the chain: 1, 2, 3 … with no gaps. */
  seq: number;
  invocationId: string;
  kind: ChainEventKind;
  /** When it was recorded (ms since epoch). */
  at: number;
  /** The record as stored (already redacted and truncated). */
  body: JsonObject;
  prevHash: string;
  hash: string;
}

/** Where verification starts: the genesis, or the checkpoint left by pruning. */
export interface ChainAnchor {
  seq: number;
  hash: string;
}

export const GENESIS: ChainAnchor = { seq: 0, hash: `sha256:${'0'.repeat(64)}` };

/** The hash an event must carry: over everything in it except the hash itself. */
export async function hashEvent(event: Omit<ChainEvent, 'hash'>): Promise<string> {
  const { seq, invocationId, kind, at, body, prevHash } = event;
  return `sha256:${await sha256Hex(canonicalJson({ seq, invocationId, kind, at, body, prevHash }))}`;
}

/** Seals new events after `head`, in order. */
export async function sealEvents(
  head: ChainAnchor,
  events: readonly Omit<ChainEvent, 'seq' | 'prevHash' | 'hash'>[],
): Promise<ChainEvent[]> {
  const sealed: ChainEvent[] = [];
  let previous = head;
  for (const event of events) {
    const unsealed = { ...event, seq: previous.seq + 1, prevHash: previous.hash };
    const hash = await hashEvent(unsealed);
    sealed.push({ ...unsealed, hash });
    previous = { seq: unsealed.seq, hash };
  }
  return sealed;
}

export type Verification =
  | { ok: true; count: number; head: ChainAnchor }
  | { ok: false; seq: number; invocationId?: string; reason: string; checked: number };

/** Walks events in seq order from `anchor` and reports the first one that breaks the chain. */
export async function verifyChain(
  events: Iterable<ChainEvent> | AsyncIterable<ChainEvent>,
  anchor: ChainAnchor = GENESIS,
  onProgress?: (checked: number) => void,
): Promise<Verification> {
  let previous = anchor;
  let checked = 0;
  let chunk: ChainEvent[] = [];
  // Hashes are computed a chunk at a time, concurrently (each WebCrypto digest is a round trip to
  // another thread); the links are then checked strictly in order.
  const check = async (): Promise<Verification | undefined> => {
    const expected = await Promise.all(
      chunk.map((event) => hashEvent(event).catch((error: unknown) => error)),
    );
    for (const [i, event] of chunk.entries()) {
      const fail = (reason: string): Verification => ({
        ok: false,
        seq: typeof event.seq === 'number' ? event.seq : previous.seq + 1,
        ...(typeof event.invocationId === 'string' ? { invocationId: event.invocationId } : {}),
        reason,
        checked,
      });
      if (event.seq !== previous.seq + 1)
        return fail(
          `expected event ${previous.seq + 1} but found ${String(event.seq)}: events are missing or reordered`,
        );
      if (event.prevHash !== previous.hash)
        return fail('its link to the previous event does not match: an earlier event was changed or removed');
      const hash = expected[i];
      if (typeof hash !== 'string')
        return fail(`it cannot be hashed (${hash instanceof Error ? hash.message : String(hash)})`);
      if (hash !== event.hash) return fail('its content does not match its hash: the event was changed');
      previous = { seq: event.seq, hash: event.hash };
      checked++;
      if (onProgress && checked % 1000 === 0) onProgress(checked);
    }
    chunk = [];
    return undefined;
  };
  for await (const event of events) {
    chunk.push(event);
    if (chunk.length >= 500) {
      const failure = await check();
      if (failure) return failure;
    }
  }
  const failure = await check();
  if (failure) return failure;
  return { ok: true, count: checked, head: previous };
}
