/**
 * The one reader of HTTP bodies against a cap. `response.text()` would read a 60 MB (or endless)
 * answer whole before anyone could look at its size; `readUpTo` stops at the cap and lets the rest
 * go. Its verbs: a whole body or a refusal (`readBodyWithin`: MCP answers, and through auth/ the
 * OAuth documents), the first bytes only (`readBoundedText`: error pages), nothing (`discardBody`).
 */

/** How much of an error body we read: enough for any error page, bounded against a hostile server. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/** A whole body, or how far reading got before the cap stopped it. */
type BoundedBody =
  | { ok: true; text: string }
  | {
      ok: false;
      /** The declared size (Content-Length), or the bytes that had arrived when reading stopped. */
      bytes: number;
      /** True when `bytes` is what arrived, not the declared size. */
      atLeast: boolean;
    };

/** What `readUpTo` found: the text of at most `limit` bytes, and why reading stopped. */
interface BodyPrefix {
  text: string;
  /** Bytes that arrived, the chunk that crossed the cap included. */
  bytes: number;
  /** True when the body ended within the cap. */
  complete: boolean;
  /** Set when the body broke while being read (`text` holds what arrived before). */
  error?: unknown;
}

/**
 * Reads at most `limit` bytes of `response`'s body as UTF-8 text, then cancels the rest, which
 * frees the connection and tells the server we went away. Never throws: a body that breaks midway
 * is reported in `error` beside what arrived.
 */
async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<BodyPrefix> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  let complete = false;
  let error: unknown;
  try {
    while (bytes <= limit) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        break;
      }
      const room = limit - bytes;
      bytes += value.byteLength;
      parts.push(decoder.decode(value.byteLength > room ? value.subarray(0, room) : value, { stream: true }));
    }
  } catch (failure) {
    error = failure;
  } finally {
    // Stops the transfer when we gave up early; a no-op once the body ended or broke.
    await reader.cancel().catch(() => undefined);
  }
  parts.push(decoder.decode());
  return { text: parts.join(''), bytes, complete, ...(error === undefined ? {} : { error }) };
}

/**
 * Reads `response`'s whole body as UTF-8 text when it is at most `limit` bytes. A Content-Length
 * over the limit fails before reading anything; a body that grows past it fails at that chunk.
 * Either way the body is cancelled. A body that breaks while being read rejects with its error.
 */
export async function readBodyWithin(response: Response, limit: number): Promise<BoundedBody> {
  const body = response.body;
  if (!body) return { ok: true, text: '' };
  const declared = declaredLength(response);
  if (declared !== undefined && declared > limit) {
    await body.cancel().catch(() => undefined);
    return { ok: false, bytes: declared, atLeast: false };
  }
  const read = await readUpTo(body, limit);
  if (read.error !== undefined) throw read.error;
  return read.complete ? { ok: true, text: read.text } : { ok: false, bytes: read.bytes, atLeast: true };
}

/**
 * The first `limit` bytes of a body as text, then lets the rest go. Never throws: a body that
 * breaks halfway still tells us something, so a failure is explained with what arrived.
 */
export async function readBoundedText(response: Response, limit = ERROR_BODY_LIMIT): Promise<string> {
  return response.body ? (await readUpTo(response.body, limit)).text : '';
}

/** Lets an unread body go, freeing the connection; a body that already failed has nothing to free. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function declaredLength(response: Response): number | undefined {
  const header = response.headers.get('content-length');
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}
