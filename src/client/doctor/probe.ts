/**
 * One recorded request: the doctor's fetch keeps what it sent and what the page could read of the
 * answer (status, the headers the browser exposes, the body), or the error it got instead.
 */

import { isJsonObject, type JsonObject } from '../../protocol/index.js';
import type { Exchange } from './report.js';

export interface Probe {
  exchange: Exchange;
  response?: Response;
  /** The body's JSON-RPC message (a JSON body, or the first answer in an event stream). */
  message?: JsonObject;
}

const READ_LIMIT = 64 * 1024;

export async function probe(
  fetchFn: typeof fetch,
  url: string,
  init: RequestInit & { headers?: Record<string, string> },
): Promise<Probe> {
  const method = init.method ?? 'GET';
  const exchange: Exchange = {
    method,
    url,
    requestHeaders: { ...(init.headers ?? {}) },
    ...(typeof init.body === 'string' ? { requestBody: init.body } : {}),
  };
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, method, credentials: 'omit', redirect: 'follow' });
  } catch (error) {
    exchange.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { exchange };
  }
  exchange.status = response.status;
  exchange.responseHeaders = Object.fromEntries(response.headers.entries());
  if (response.type === 'opaque') return { exchange, response };
  const text = await readText(response);
  exchange.responseBody = text;
  const message = rpcMessageIn(text);
  return { exchange, response, ...(message ? { message } : {}) };
}

async function readText(response: Response): Promise<string> {
  // An event stream may stay open after its answer: read until a message ends or the limit.
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > READ_LIMIT || (/^data:/m.test(text) && /\n\n/.test(text) && rpcMessageIn(text))) {
      void reader.cancel().catch(() => undefined);
      break;
    }
  }
  return text;
}

/** The JSON-RPC answer in a body: the JSON itself, or the first `data:` event holding an answer. */
export function rpcMessageIn(text: string): JsonObject | undefined {
  const parse = (candidate: string) => {
    try {
      const value: unknown = JSON.parse(candidate);
      return isJsonObject(value) && ('result' in value || 'error' in value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const whole = parse(text);
  if (whole) return whole;
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    const found = data ? parse(data) : undefined;
    if (found) return found;
  }
  return undefined;
}
