/**
 * Reads an HTTP answer's body against a cap. `response.text()` would read a 60 MB (or endless)
 * answer whole before anyone could look at its size; this stops at the cap and lets the rest go.
 */

/** A whole body, or how far reading got before the cap stopped it. */
export type BoundedBody =
  | { ok: true; text: string }
  | {
      ok: false;
      /** The declared size (Content-Length), or the bytes that had arrived when reading stopped. */
      bytes: number;
      /** True when `bytes` is what arrived, not the declared size. */
      atLeast: boolean;
    };

/**
 * Reads at most `limit` bytes of `response`'s body as UTF-8 text. A Content-Length over the limit
 * fails before reading anything; a body that grows past it fails at that chunk. Either way the body
 * is cancelled, which frees the connection and tells the server we went away.
 */
export async function readBodyWithin(response: Response, limit: number): Promise<BoundedBody> {
  const body = response.body;
  if (!body) return { ok: true, text: '' };
  const declared = declaredLength(response);
  if (declared !== undefined && declared > limit) {
    await body.cancel().catch(() => undefined);
    return { ok: false, bytes: declared, atLeast: false };
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limit) return { ok: false, bytes, atLeast: true };
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    return { ok: true, text: parts.join('') };
  } finally {
    // Stops the transfer when we gave up early; a no-op once the body ended.
    await reader.cancel().catch(() => undefined);
  }
}

function declaredLength(response: Response): number | undefined {
  const header = response.headers.get('content-length');
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}
