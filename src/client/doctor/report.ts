/**
 * The doctor's report: a timeline of steps, each passed, failed or skipped, with the exchanges it
 * saw (redacted) and its reason in one sentence. Plain data, so the view only renders it.
 */

import { redactSecrets, redactSecretsInText, redactUrl } from '../../protocol/index.js';
import type { CorsFix } from './cors-fix.js';

export type StepId =
  | 'reachability'
  | 'cors'
  | 'preflight'
  | 'protocol'
  | 'session-header'
  | 'authorization'
  | 'resource-metadata'
  | 'authorization-server'
  | 'registration'
  | 'tools-list';

type StepOutcome = 'pass' | 'fail' | 'skipped';

/** One HTTP exchange as the page saw it: only the response headers the browser let it read. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** The fetch rejected: in a browser a bare TypeError, whether CORS or the network refused. */
  error?: string;
}

export interface DoctorStep {
  id: StepId;
  title: string;
  outcome: StepOutcome;
  /** One sentence: why it passed, failed or was skipped. */
  reason: string;
  exchanges: Exchange[];
  /** For a CORS failure: the response header the server must add, e.g. `Access-Control-Allow-Origin`. */
  missingHeader?: string;
  /** For a CORS failure at another server (the authorization server): its origin. */
  refusedOrigin?: string;
}

export interface DoctorReport {
  url: string;
  /** The page's exact origin, which the server must name. */
  origin: string;
  steps: DoctorStep[];
  /** True when a step failed for CORS: the report then offers the fix to hand over. */
  corsFailure: boolean;
  /** For a CORS failure: the headers and server snippets to hand to the server's owner. */
  fix?: CorsFix;
  /**
   * The origin whose CORS shut this page out (the server's, or its authorization server's): where
   * a host that can get past CORS (the extension, with the person's permission) offers to.
   */
  refusedOrigin?: string;
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
}

const BODY_CHARS = 2000;

/** Shown instead of the value of a header configured for the server. */
export const CONFIGURED_REDACTED = '[redacted: configured for this server]';

/**
 * A copy of an exchange with credentials removed, as the report may show and copy it: secrets by
 * name and by shape (as the audit log), and every header configured for the server, by its name
 * wherever it is sent and by its value wherever it shows (an echo, a URL).
 */
export function redactExchange(
  exchange: Exchange,
  configured: Readonly<Record<string, string>> = {},
): Exchange {
  const names = new Set(Object.keys(configured).map((name) => name.toLowerCase()));
  // The whole value, and the credential after an auth scheme ("Bearer abc" also hides "abc").
  const values = Object.values(configured)
    .flatMap((value) => [value, /^[A-Za-z][\w-]* +(\S{4,})$/.exec(value)?.[1]])
    .filter((value): value is string => value !== undefined && value.length >= 4)
    .sort((a, b) => b.length - a.length);
  const mask = (text: string) =>
    values.reduce((shown, value) => shown.replaceAll(value, CONFIGURED_REDACTED), text);
  const redactHeaders = (headers: Record<string, string>) =>
    redactSecrets(
      Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [
          name,
          names.has(name.toLowerCase()) ? CONFIGURED_REDACTED : redactSecretsInText(mask(value)),
        ]),
      ),
    ).value;
  const body = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const masked = mask(text); // before cutting, so no value is cut in two and shown in part
    return redactSecretsInText(masked.length > BODY_CHARS ? `${masked.slice(0, BODY_CHARS)}…` : masked);
  };
  const requestBody = body(exchange.requestBody);
  const responseBody = body(exchange.responseBody);
  return {
    ...exchange,
    url: redactUrl(mask(exchange.url)),
    requestHeaders: redactHeaders(exchange.requestHeaders),
    ...(exchange.responseHeaders ? { responseHeaders: redactHeaders(exchange.responseHeaders) } : {}),
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(responseBody !== undefined ? { responseBody } : {}),
    ...(exchange.error !== undefined ? { error: mask(exchange.error) } : {}),
  };
}
