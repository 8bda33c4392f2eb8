import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenFacts } from './authorization-server.mjs';

export const BASE_SCOPE: string;
export const WRITE_SCOPE: string;

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;
type Introspect = (
  token: string,
) => Promise<Pick<TokenFacts, 'clientId' | 'scopes' | 'expiresAt' | 'audience'> | undefined>;

/** Where a server at `resource` publishes its metadata (RFC 9728's path-inserted form). */
export function resourceMetadataUrlOf(resource: string): string;
/** The Protected Resource Metadata document of `resource`. */
export function protectedResourceMetadata(options: {
  resource: string;
  issuer: string;
  name?: string;
}): Record<string, unknown>;
/** Express middleware for the MCP endpoint of `resource` (mounted at its path). */
export function protectedMcpEndpoint(options: {
  resource: string;
  introspect: Introspect;
  name?: string;
  refuseEveryToken?: boolean;
  onRequest?: (request: { method: string; rpcMethod: string | null; authorization: string | null }) => void;
}): NodeHandler;
/** One protected MCP server (metadata and endpoint) as a node:http handler. */
export function protectedServerHandler(options: {
  resource: string;
  issuer: string;
  introspect: Introspect;
  name?: string;
}): NodeHandler;
/** CORS for browser pages of any origin (express-style middleware). */
export function allowBrowsers(req: IncomingMessage, res: ServerResponse, next: () => void): void;
