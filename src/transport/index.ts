/** The transport room's front door: the transports, their limits and the bounded body reader. */

export { discardBody, readBodyWithin } from './bounded-body.js';
export { ChromePortTransport, type ChromeRuntimePort } from './chrome-port.js';
export { isLoopbackHost } from './http-fetch.js';
export { HttpSseTransport } from './http-sse.js';
export { type ConnectionLimits, DEFAULT_LIMITS, resolveLimits } from './limits.js';
export { MessagePortTransport } from './message-port.js';
export { PostMessageClientTransport } from './post-message.js';
export { acceptPostMessageClients, PostMessageServer } from './post-message-server.js';
export { messageOfEvent, readSse } from './sse-reader.js';
export { encodeHeaderValue, StreamableHttpTransport } from './streamable-http.js';
export { StreamableHttpCore, streamableHttpFor } from './streamable-http-core.js';
export { ResponseTooLargeError } from './too-large.js';
export type { SendOptions, Transport } from './transport.js';
export {
  type ModelContextLike,
  pageModelContext,
  registerGatedTool,
  registerHostTool,
  WebMcpPageTransport,
} from './webmcp-page.js';
export { acceptWorkerClients } from './worker-server.js';
