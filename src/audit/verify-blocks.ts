/**
 * Verifies the chain as stored: each event's text is hashed (it is the exact text its hash
 * covers, so nothing is serialized again), the hash compared with the one stored, and the link
 * checked from the text itself: canonical JSON sorts keys, so an event's text ends with
 * `"prevHash":…,"seq":…}`. Hashes of a block are computed concurrently (each WebCrypto digest runs
 * off the main thread), and the next page of blocks is read while the current one is hashed.
 * Reports the first break, like verifyChain, with the same reasons.
 */

import { lastSeqOf, type StoredBlock } from './blocks.js';
import { type ChainAnchor, hashText, type Verification } from './chain.js';

const CONCURRENT_HASHES = 64;

/** Hashes `texts` a few dozen at a time (more at once measured no faster, and holds more memory). */
async function hashAll(texts: readonly string[]): Promise<string[]> {
  const hashes: string[] = [];
  for (let i = 0; i < texts.length; i += CONCURRENT_HASHES)
    hashes.push(
      ...(await Promise.all(
        texts
          .slice(i, i + CONCURRENT_HASHES)
          .map((text) => hashText(text).catch((error: unknown) => `unhashable: ${String(error)}`)),
      )),
    );
  return hashes;
}

/** Reads one item ahead, so the next page is being read while this one is checked. */
async function* readAhead<T>(source: AsyncIterator<T>): AsyncGenerator<T> {
  let next = source.next();
  for (;;) {
    const result = await next;
    if (result.done) return;
    next = source.next();
    yield result.value;
  }
}

/** What an event's text says about its own seq and link, for the report when a check fails. */
function described(text: string): { seq?: unknown; invocationId?: unknown; prevHash?: unknown } {
  try {
    return JSON.parse(text) as { seq?: unknown; invocationId?: unknown; prevHash?: unknown };
  } catch {
    // A broken event text has no fields to report; the check's own message says it broke.
    return {};
  }
}

export async function verifyBlocks(
  blocks: AsyncIterable<StoredBlock>,
  anchor: ChainAnchor,
  through: number,
  onProgress?: (checked: number) => void,
): Promise<Verification> {
  let previous = anchor;
  let checked = 0;
  for await (const block of readAhead(blocks[Symbol.asyncIterator]())) {
    const start = Math.max(0, previous.seq + 1 - block.from);
    const end = Math.min(block.texts.length, through - block.from + 1);
    if (end <= start) continue;
    const computed = await hashAll(block.texts.slice(start, end));
    for (let i = start; i < end; i++) {
      const seq = block.from + i;
      const text = block.texts[i]!;
      const fail = (reason: string): Verification => {
        const { invocationId } = described(text);
        return {
          ok: false,
          seq,
          ...(typeof invocationId === 'string' ? { invocationId } : {}),
          reason,
          checked,
        };
      };
      if (seq !== previous.seq + 1)
        return fail(`expected event ${previous.seq + 1} but found ${seq}: events are missing or reordered`);
      if (!text.endsWith(`"prevHash":${JSON.stringify(previous.hash)},"seq":${seq}}`)) {
        const own = described(text);
        if (own.seq !== seq)
          return fail(`expected event ${seq} but found ${String(own.seq)}: events are missing or reordered`);
        return fail('its link to the previous event does not match: an earlier event was changed or removed');
      }
      if (computed[i - start] !== block.hashes[i])
        return fail('its content does not match its hash: the event was changed');
      previous = { seq, hash: block.hashes[i]! };
      checked++;
      if (onProgress && checked % 1000 === 0) onProgress(checked);
    }
    if (lastSeqOf(block) >= through) break;
  }
  return { ok: true, count: checked, head: previous };
}
