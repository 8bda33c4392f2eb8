/**
 * Reads a metadata or registration answer as JSON, bounded: these documents are small, and a
 * server that streams megabytes at us is refused rather than buffered.
 */

/** Far above any real metadata document or registration answer. */
export const METADATA_BODY_LIMIT = 256 * 1024;

export class BodyProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyProblem';
  }
}

/** The body as text; throws BodyProblem when it is larger than `limit` bytes. */
export async function readBoundedBody(response: Response, limit = METADATA_BODY_LIMIT): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyProblem(`the answer is larger than ${Math.round(limit / 1024)} KB`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** The body parsed as a JSON object; throws BodyProblem for anything else. */
export async function readJsonObject(response: Response, limit?: number): Promise<Record<string, unknown>> {
  const text = await readBoundedBody(response, limit);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new BodyProblem(`the answer is not JSON (${type})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BodyProblem('the answer is JSON but not an object');
  return value as Record<string, unknown>;
}

/** Discards a body we will not read, freeing the connection; a broken body has nothing to free. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A copy of the response with its body read under the bound, for oauth4webapi to parse: it reads
 * bodies whole, and an answer that should be a few hundred bytes has no reason to be larger.
 */
export async function boundedCopy(response: Response, limit?: number): Promise<Response> {
  const body = await readBoundedBody(response, limit);
  return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: bodylessHeaders(response.headers),
  });
}

/** The headers without those that describe the original bytes (the copy's body is decoded text). */
export function bodylessHeaders(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.delete('content-length');
  copy.delete('content-encoding');
  return copy;
}
