/**
 * One OTLP/HTTP export request and what to do after it, as the OTLP specification's HTTP section
 * says: 2xx is accepted (perhaps partly: partialSuccess); 429, 502, 503 and 504 are worth retrying
 * (Retry-After honoured), and so are the other 5xx and network failures, with backoff; 413 means
 * the batch is too large; any other 4xx will not change by sending the same bytes again.
 */

import { redactUrlsInText } from '../../protocol/index.js';

type PostOutcome =
  | { kind: 'accepted'; rejected: number; message?: string }
  | { kind: 'retry'; afterMs?: number; reason: string }
  | { kind: 'too-large'; reason: string }
  | { kind: 'rejected'; status: number; reason: string };

/** How long one request may take before it counts as a network failure. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Retry-After beyond this is taken as this: a misconfigured collector must not park the export for days. */
const MAX_RETRY_AFTER_MS = 60 * 60_000;

export async function postLogs(
  url: string,
  body: string,
  headers: Record<string, string>,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<PostOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      // The collector's answer matters, not cookies of the page's origin.
      credentials: 'omit',
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return {
      kind: 'retry',
      reason: `the collector at ${shown(url)} could not be reached (${describe(error)})`,
    };
  }
  const text = await response.text().catch(() => '');
  if (response.ok) return { kind: 'accepted', ...partialSuccess(text) };
  const status = response.status;
  const said = statusMessage(text);
  const reason = `the collector at ${shown(url)} answered HTTP ${status}${said ? `: ${said}` : ''}`;
  if (status === 413) return { kind: 'too-large', reason };
  if (status === 429 || status >= 500) {
    const afterMs = retryAfterMs(response.headers.get('retry-after'));
    return { kind: 'retry', reason, ...(afterMs !== undefined ? { afterMs } : {}) };
  }
  return { kind: 'rejected', status, reason };
}

/** Retry-After as delay-seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with jitter: attempt 1 waits about `initialMs`, doubling up to `maxMs`. */
export function backoffMs(attempt: number, initialMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  // Half fixed, half random: many browsers retrying after one outage do not arrive at once.
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** ExportLogsServiceResponse.partialSuccess (JSON), if the collector reported one. */
function partialSuccess(text: string): { rejected: number; message?: string } {
  if (!text) return { rejected: 0 };
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const partial = (parsed.partialSuccess ?? parsed.partial_success) as Record<string, unknown> | undefined;
    if (!partial || typeof partial !== 'object') return { rejected: 0 };
    const rejected = Number(partial.rejectedLogRecords ?? partial.rejected_log_records ?? 0);
    const message = partial.errorMessage ?? partial.error_message;
    return {
      rejected: Number.isFinite(rejected) ? rejected : 0,
      ...(typeof message === 'string' && message ? { message: message.slice(0, 300) } : {}),
    };
  } catch {
    // A collector's unreadable answer body means no partial rejection was reported.
    return { rejected: 0 };
  }
}

/** google.rpc.Status.message from an error body, if there is one (at most 300 characters). */
function statusMessage(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message.slice(0, 300) : undefined;
  } catch {
    // A collector's error body that is not JSON has no message to quote.
    return undefined;
  }
}

/** The collector's URL as it may be shown: no user info, no secret-looking query values. */
function shown(url: string): string {
  return redactUrlsInText(url);
}

function describe(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'no answer within 30 s';
  return error instanceof Error ? error.message : String(error);
}
