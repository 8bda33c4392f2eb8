/**
 * Property tests for the bounded SSE reader: whatever the network's chunking (cuts anywhere, inside a
 * CRLF or a multi-byte character), the events read under the caps are exactly the events written;
 * a stream over a cap always fails, and the event that broke it (or any part of it) is never dispatched.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSse, SseLimitError } from './sse-reader.js';

interface WrittenEvent {
  data: string[];
  id?: string;
  type?: string;
  /** Comment lines inside the event (keep-alives): they count towards its size, dispatch nothing. */
  comments: string[];
}

/** Text of one line: anything but CR and LF (and NUL, which would void an id). */
const lineText = fc
  .oneof(
    fc.string({ unit: fc.constantFrom('a', ' ', ':', 'é', '世', '😀', '"', '{', '\r', '\n') }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
  )
  .map((text) => text.replace(/[\r\n\0]/g, ''));

const writtenEvent: fc.Arbitrary<WrittenEvent> = fc.record(
  {
    data: fc.array(lineText, { minLength: 1, maxLength: 4 }),
    id: lineText,
    type: lineText.filter((text) => text !== ''),
    comments: fc.array(lineText, { maxLength: 2 }),
  },
  { requiredKeys: ['data', 'comments'] },
);

const terminator = fc.constantFrom('\n', '\r', '\r\n');

/** The stream as bytes, and for each event its size (bytes of its lines) and where its blank line's break starts. */
function serialize(
  events: WrittenEvent[],
  breaks: string[],
  bom: boolean,
): { bytes: Uint8Array; sizes: number[]; dispatchedAt: number[] } {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let offset = 0;
  let next = 0;
  const add = (text: string) => {
    const encoded = encoder.encode(text);
    parts.push(encoded);
    offset += encoded.length;
    return encoded.length;
  };
  let previous = '';
  const lineBreak = () => {
    let chosen = breaks[next++ % breaks.length] ?? '\n';
    // CR then LF is one line break (CRLF), never two: a blank line there would vanish.
    if (previous === '\r' && chosen === '\n') chosen = '\r';
    previous = chosen;
    return add(chosen);
  };
  if (bom) add('\ufeff');
  const sizes: number[] = [];
  const dispatchedAt: number[] = [];
  for (const event of events) {
    const lines = [
      ...event.comments.map((comment) => `:${comment}`),
      ...(event.type !== undefined ? [`event: ${event.type}`] : []),
      ...(event.id !== undefined ? [`id: ${event.id}`] : []),
      ...event.data.map((line) => `data: ${line}`),
    ];
    let size = 0;
    for (const line of lines) {
      size += add(line);
      lineBreak();
    }
    sizes.push(size);
    dispatchedAt.push(offset);
    lineBreak();
  }
  const bytes = new Uint8Array(offset);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { bytes, sizes, dispatchedAt };
}

/** What the reader should hand over for a written event. */
function expected(event: WrittenEvent) {
  return { id: event.id, event: event.type, data: event.data.join('\n') };
}

function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length)))].sort(
    (a, b) => a - b,
  );
  return new ReadableStream({
    start(controller) {
      let from = 0;
      for (const point of [...points, bytes.length]) {
        if (point > from) controller.enqueue(bytes.slice(from, point));
        from = Math.max(from, point);
      }
      controller.close();
    },
  });
}

async function readAll(
  body: ReadableStream<Uint8Array>,
  limits: { maxEventBytes?: number; maxTotalBytes?: number },
): Promise<{ events: unknown[]; error?: unknown }> {
  const events: unknown[] = [];
  try {
    await readSse(body, { onEvent: (event) => events.push({ ...event }) }, limits);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

const cuts = fc.array(fc.nat(), { maxLength: 40 });

describe('readSse under arbitrary chunking', () => {
  it('reads exactly the events written, however the bytes are cut, while under the caps', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(writtenEvent, { maxLength: 6 }),
        fc.array(terminator, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        cuts,
        async (events, breaks, bom, cutPoints) => {
          const { bytes } = serialize(events, breaks, bom);
          const read = await readAll(chunked(bytes, cutPoints), {
            maxEventBytes: 1_000_000,
            maxTotalBytes: bytes.length,
          });
          expect(read.error).toBeUndefined();
          expect(read.events).toEqual(events.map(expected));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('fails at an event over the cap, having dispatched exactly the events before it and nothing of it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(writtenEvent, { minLength: 1, maxLength: 6 }),
        fc.array(terminator, { minLength: 1, maxLength: 5 }),
        cuts,
        fc.nat(),
        async (events, breaks, cutPoints, pick) => {
          const { bytes, sizes } = serialize(events, breaks, false);
          // A cap just under one event's size: that event, or an earlier bigger one, must break it.
          const cap = (sizes[pick % sizes.length] ?? 1) - 1;
          fc.pre(cap >= 0);
          const first = sizes.findIndex((size) => size > cap);
          const read = await readAll(chunked(bytes, cutPoints), { maxEventBytes: cap });
          expect(read.error).toBeInstanceOf(SseLimitError);
          expect((read.error as SseLimitError).cap).toBe('event');
          expect(read.events).toEqual(events.slice(0, first).map(expected));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('fails when the stream passes its total cap, having dispatched only the events wholly inside it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(writtenEvent, { minLength: 1, maxLength: 6 }),
        fc.array(terminator, { minLength: 1, maxLength: 5 }),
        cuts,
        fc.nat(),
        async (events, breaks, cutPoints, pick) => {
          const { bytes, dispatchedAt } = serialize(events, breaks, false);
          fc.pre(bytes.length > 0);
          const cap = pick % bytes.length;
          const read = await readAll(chunked(bytes, cutPoints), { maxTotalBytes: cap });
          expect(read.error).toBeInstanceOf(SseLimitError);
          expect((read.error as SseLimitError).cap).toBe('total');
          // An event is dispatched when the break ending its blank line starts inside the cap.
          const inside = events.filter((_event, index) => (dispatchedAt[index] ?? 0) < cap);
          expect(read.events).toEqual(inside.map(expected));
        },
      ),
      { numRuns: 400 },
    );
  });
});
