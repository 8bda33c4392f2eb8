/** auth's JSON reader is bounded by transport/'s one body reader (bounded-body.ts): its limit, in KB. */

import { describe, expect, it } from 'vitest';
import { readJsonObject } from './json-body.js';

/** A body that never ends, in chunks of `size` bytes of 'a'. */
function endless(size: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(size).fill(0x61);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(chunk);
    },
  });
}

describe('readJsonObject', () => {
  it('refuses an OAuth document over its limit, in KB', async () => {
    await expect(readJsonObject(new Response(endless(1024)), 4 * 1024)).rejects.toThrow(
      'the answer is larger than 4 KB',
    );
  });

  it('reads a document within its limit', async () => {
    await expect(readJsonObject(new Response('{"issuer":"https://as.example"}'), 4 * 1024)).resolves.toEqual({
      issuer: 'https://as.example',
    });
  });
});
