/**
 * The one bounded body reader, on its own: bodies are real web streams (no server needed to see
 * what is read, cancelled and returned). Its users: the HTTP transports (answers and error pages)
 * and auth/json-body.ts (OAuth documents, tested in auth/json-body.test.ts).
 */

import { describe, expect, it } from 'vitest';
import { discardBody, ERROR_BODY_LIMIT, readBodyWithin, readBoundedText } from './bounded-body.js';

/** A body of `chunks` chunks of `size` bytes of 'a' (endless without a count), reporting what happened. */
function stream(size: number, chunks = Number.POSITIVE_INFINITY) {
  const seen = { pulls: 0, cancelled: false };
  const chunk = new Uint8Array(size).fill(0x61);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulls++ >= chunks) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

describe('readBoundedText', () => {
  it('stops at the limit and cancels the rest of the body', async () => {
    const { body, seen } = stream(16 * 1024);
    const text = await readBoundedText(new Response(body));
    expect(text.length).toBe(ERROR_BODY_LIMIT);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulls).toBeLessThan(10);
  });

  it('keeps what arrived when the body breaks halfway', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('<h1>Bad gateway</h1>'));
        else controller.error(new Error('connection reset'));
      },
    });
    expect(await readBoundedText(new Response(body))).toBe('<h1>Bad gateway</h1>');
  });
});

describe('readBodyWithin', () => {
  it('returns a body within the limit whole', async () => {
    const { body } = stream(100, 3);
    expect(await readBodyWithin(new Response(body), 300)).toEqual({ ok: true, text: 'a'.repeat(300) });
  });

  it('refuses a declared size over the limit before reading anything', async () => {
    const { body, seen } = stream(10);
    const response = new Response(body, { headers: { 'content-length': '5000' } });
    expect(await readBodyWithin(response, 1000)).toEqual({ ok: false, bytes: 5000, atLeast: false });
    expect(seen.cancelled).toBe(true);
    expect(seen.pulls).toBeLessThanOrEqual(1);
  });

  it('stops a body that grows past the limit at that chunk, saying how much had arrived', async () => {
    const { body, seen } = stream(400);
    expect(await readBodyWithin(new Response(body), 1000)).toEqual({ ok: false, bytes: 1200, atLeast: true });
    expect(seen.cancelled).toBe(true);
  });

  it('rejects with the error of a body that breaks', async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    await expect(readBodyWithin(new Response(body), 1000)).rejects.toThrow('connection reset');
  });
});

describe('its other users', () => {
  it('discardBody cancels an unread body', async () => {
    const { body, seen } = stream(10);
    await discardBody(new Response(body));
    expect(seen.cancelled).toBe(true);
  });
});
