/**
 * Reads a metadata or registration answer as JSON, bounded: these documents are small, and a
 * server that streams megabytes at us is refused rather than buffered (by transport/'s one reader).
 */

import { readBodyWithin } from '../transport/index.js';

/** Far above any real metadata document or registration answer. */
const METADATA_BODY_LIMIT = 256 * 1024;

export class BodyProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyProblem';
  }
}

/** The body as text; throws BodyProblem when it is larger than `limit` bytes. */
async function readBoundedBody(response: Response, limit = METADATA_BODY_LIMIT): Promise<string> {
  const body = await readBodyWithin(response, limit);
  if (!body.ok) throw new BodyProblem(`the answer is larger than ${Math.round(limit / 1024)} KB`);
  return body.text;
}

/** The body parsed as a JSON object; throws BodyProblem for anything else. */
export async function readJsonObject(response: Response, limit?: number): Promise<Record<string, unknown>> {
  const text = await readBoundedBody(response, limit);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message would quote the body; ours names the content type instead.
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new BodyProblem(`the answer is not JSON (${type})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BodyProblem('the answer is JSON but not an object');
  return value as Record<string, unknown>;
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
