/**
 * The Transport interface lives in the protocol room (the request engine is written against it);
 * transports import it from here, beside their implementations.
 */
export type * from '../protocol/transport.js';
