/**
 * The legacy session rules a server must keep (2025-03-26 .. 2025-11-25 Streamable HTTP): a session
 * id is visible ASCII, and a server that forgets sessions gets a bounded number of new ones.
 */

import { TransportError } from '../protocol/index.js';
import type { FailureContext } from './http-failure.js';

/** Longest session id Toolgate accepts. The spec sets no number; real ids are UUIDs or tokens far below it. */
export const MAX_SESSION_ID_CHARS = 1024;

/** Why `id` cannot be a session id (visible ASCII 0x21-0x7E, at most 1024 characters), or undefined. */
export function sessionIdProblem(id: string): string | undefined {
  if (id.length > MAX_SESSION_ID_CHARS)
    return `it is ${id.length} characters long, more than the ${MAX_SESSION_ID_CHARS} Toolgate accepts`;
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    if (code < 0x21 || code > 0x7e)
      return `character ${index + 1} is ${describeCode(code)}, which is not visible ASCII`;
  }
  return undefined;
}

function describeCode(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code === 0x20) return `a space (${hex})`;
  if (code < 0x20 || code === 0x7f) return `a control character (${hex})`;
  return hex;
}

/** The server assigned a session id that breaks the rules; it is neither stored nor shown. */
export function badSessionId(context: FailureContext, problem: string): TransportError {
  return new TransportError(
    context.url,
    'not-mcp',
    `${context.url} assigned an MCP session id Toolgate cannot use: ${problem}. The specification allows ` +
      `only visible ASCII characters (0x21 to 0x7E) in a session id; Toolgate did not use it. ` +
      `This is a bug in the server (tell its maintainer).`,
  );
}

/** The server lost one new session too many in a row: the connection fails for good. */
export function sessionsExhausted(context: FailureContext, label: string, restarts: number): TransportError {
  return new TransportError(
    context.url,
    'http-status',
    `${label} forgot the MCP session again (HTTP 404) after Toolgate started ${restarts} new ` +
      `session${restarts === 1 ? '' : 's'} in a row, so Toolgate stopped and sends it nothing more. The server may be ` +
      `restarting, or run several instances without shared sessions. Reconnect once it is fixed.`,
    404,
  );
}
