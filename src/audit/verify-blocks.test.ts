import { describe, expect, it } from 'vitest';
import { eventJson, eventOf, type StoredBlock } from './blocks.js';
import { type ChainAnchor, GENESIS, sealTexts, verifyChain } from './chain.js';
import { verifyBlocks } from './verify-blocks.js';

/** A chain of `count` events stored in blocks of `size`, as the appender writes them. */
async function storedChain(
  count: number,
  size: number,
  anchor: ChainAnchor = GENESIS,
): Promise<StoredBlock[]> {
  const blocks: StoredBlock[] = [];
  let head = anchor;
  for (let first = 0; first < count; first += size) {
    const drafts = Array.from({ length: Math.min(size, count - first) }, (_, i) => ({
      invocationId: `inv-${first + i}`,
      kind: 'pending' as const,
      at: 1_700_000_000_000 + first + i,
      body: { toolName: 'echo', arguments: { n: first + i, text: 'é "quoted" \u2028' } },
    }));
    const sealed = await sealTexts(head, drafts);
    blocks.push({ from: head.seq + 1, texts: sealed.texts, hashes: sealed.hashes });
    head = { seq: sealed.events.at(-1)!.seq, hash: sealed.hashes.at(-1)! };
  }
  return blocks;
}

async function* stream(blocks: StoredBlock[]) {
  yield* blocks;
}

const edit = (text: string) => text.replace('"echo"', '"something_else"');

describe('verifying the stored chain', () => {
  it('accepts an untouched chain, reports progress, and agrees with verifyChain on the parsed events', async () => {
    const blocks = await storedChain(2500, 300);
    const progress: number[] = [];
    const result = await verifyBlocks(stream(blocks), GENESIS, 2500, (n) => progress.push(n));
    const events = blocks.flatMap((block) => block.texts.map((_, i) => eventOf(block, i)));
    expect(result).toEqual(await verifyChain(events));
    expect(result).toMatchObject({ ok: true, count: 2500, head: { seq: 2500 } });
    expect(progress).toEqual([1000, 2000]);
    // The export's line is the event with its hash, parsed back to the same event.
    expect(JSON.parse(eventJson(blocks[1]!, 5))).toEqual(events[305]);
  });

  it('starts after the anchor and stops at the head it is given', async () => {
    const blocks = await storedChain(50, 20);
    const anchor = { seq: 25, hash: blocks[1]!.hashes[4]! };
    expect(await verifyBlocks(stream(blocks), anchor, 40)).toMatchObject({
      ok: true,
      count: 15,
      head: { seq: 40 },
    });
  });

  it('finds an edited event, a removed block, a replaced hash, and an event moved elsewhere', async () => {
    const edited = await storedChain(30, 10);
    edited[1]!.texts[3] = edit(edited[1]!.texts[3]!);
    expect(await verifyBlocks(stream(edited), GENESIS, 30)).toMatchObject({
      ok: false,
      seq: 14,
      invocationId: 'inv-13',
      checked: 13,
      reason: expect.stringContaining('changed'),
    });

    const removed = await storedChain(30, 10);
    removed.splice(1, 1);
    expect(await verifyBlocks(stream(removed), GENESIS, 30)).toMatchObject({
      ok: false,
      seq: 21,
      reason: expect.stringContaining('missing or reordered'),
    });

    // Someone re-hashes their edit: the next event's link gives it away.
    const rehashed = await storedChain(30, 10);
    const resealed = await sealTexts({ seq: 4, hash: rehashed[0]!.hashes[3]! }, [
      { invocationId: 'inv-4', kind: 'pending', at: 1, body: { toolName: 'edited' } },
    ]);
    rehashed[0]!.texts[4] = resealed.texts[0]!;
    rehashed[0]!.hashes[4] = resealed.hashes[0]!;
    expect(await verifyBlocks(stream(rehashed), GENESIS, 30)).toMatchObject({
      ok: false,
      seq: 6,
      reason: expect.stringContaining('link to the previous event'),
    });

    // An event's text placed at another position: it says which event it is.
    const moved = await storedChain(30, 10);
    moved[2]!.texts[0] = moved[2]!.texts[1]!;
    moved[2]!.hashes[0] = moved[2]!.hashes[1]!;
    expect(await verifyBlocks(stream(moved), GENESIS, 30)).toMatchObject({
      ok: false,
      seq: 21,
      reason: 'expected event 21 but found 22: events are missing or reordered',
    });
  });
});
