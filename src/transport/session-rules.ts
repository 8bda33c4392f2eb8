/**
 * Why a legacy server's session id (2025-03-26 .. 2025-11-25 Streamable HTTP) cannot be used: a
 * session id is visible ASCII, at most MAX_SESSION_ID_CHARS long. streamable-http.ts checks ids with
 * isUsableSessionId and loads this wording with `import()` only for an id that breaks the rule.
 */

import { TransportError } from '../protocol/index.js';
import { type FailureContext, MAX_SESSION_ID_CHARS } from './http-failure.js';

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
