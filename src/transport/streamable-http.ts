/**
 * StreamableHttpTransport, the package's Streamable HTTP transport: streamable-http-core.ts with the
 * URL secret rule (protocol's url-secrets.ts) built in, so whatever URL it is given, its label, its
 * messages and the secrets it keeps out of them are known from the start. connect() loads this
 * module only for an address that can carry a secret (streamableHttpFor).
 */

import { redactUrl, redactUrlsInText, secretsInUrl } from '../protocol/index.js';
import { StreamableHttpCore, type StreamableHttpOptions } from './streamable-http-core.js';

export { encodeHeaderValue, type StreamableHttpOptions } from './streamable-http-core.js';

/** MCP over Streamable HTTP (modern and legacy eras). */
export class StreamableHttpTransport extends StreamableHttpCore {
  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    super(url, options, { redactUrl, redactUrlsInText, secretsInUrl });
  }
}
