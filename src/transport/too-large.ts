/**
 * An answer over its cap (limits.ts): the error that says which cap, how big, and which limit
 * raises it. Only a failure needs it, so streamable-http-core.ts loads it with `import()` when an answer
 * outgrows its cap; the other transports import it as usual.
 */

import { type ConnectionLimits, ToolgateError } from '../protocol/index.js';

const MB = 1024 * 1024;

/** "16 MB", "1.5 MB", "300 KB": a size as a person reads it. */
export function describeBytes(bytes: number): string {
  if (bytes >= MB) {
    const mb = bytes / MB;
    return `${mb >= 10 || Number.isInteger(mb) ? Math.round(mb) : mb.toFixed(1)} MB`;
  }
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Which cap an answer ran into. */
export type SizeCap = 'body' | 'stream' | 'event' | 'message';

/** Which ConnectionLimits field raises each cap. */
const OPTION_OF: Readonly<Record<SizeCap, keyof ConnectionLimits>> = {
  body: 'maxBodyBytes',
  stream: 'maxBodyBytes',
  event: 'maxEventBytes',
  message: 'maxMessageBytes',
};

/**
 * An answer outgrew its cap. Toolgate stopped reading at the cap, cancelled the request and used
 * nothing from the answer. `bytes` is exact when the server declared the size up front, otherwise
 * what had arrived when reading stopped (`atLeast`).
 */
export class ResponseTooLargeError extends ToolgateError {
  readonly kind = 'too-large';
  constructor(
    readonly server: string,
    readonly method: string,
    readonly cap: SizeCap,
    readonly bytes: number,
    readonly limit: number,
    readonly atLeast: boolean,
  ) {
    super(
      `response too large (${sizeText(cap, bytes, limit, atLeast)}, limit ${describeBytes(limit)}${
        cap === 'event' ? ' per event' : cap === 'message' ? ' per message' : ''
      }): ${server} answered ${method} with more than Toolgate reads from one server. It stopped reading, ` +
        `cancelled the request and used nothing from the answer. If answers this big are expected, ` +
        `raise limits.${OPTION_OF[cap]} for this server.`,
    );
    this.name = 'ResponseTooLargeError';
  }
}

function sizeText(cap: SizeCap, bytes: number, limit: number, atLeast: boolean): string {
  // Reading stopped just past the cap, so what arrived says no more than "over the limit".
  const size = atLeast ? `over ${describeBytes(limit)}` : describeBytes(bytes);
  if (cap === 'event') return `an event of ${size}`;
  if (cap === 'stream') return `${size} in its event stream`;
  return size;
}
