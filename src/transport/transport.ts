/**
 * The Transport interface lives in the protocol room (the request engine is written against it);
 * transports import it from here, beside their implementations.
 */
export type { ConnectionLimits, SendOptions, Transport } from '../protocol/index.js';
