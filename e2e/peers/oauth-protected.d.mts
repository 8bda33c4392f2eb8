/** What the protected MCP server and its authorization server saw (see oauth-protected.mjs). */
export interface ProtectedServerSeen {
  /** Authorization requests the authorization server approved, with the scopes and resource asked for. */
  authorizations: { scopes: string[]; resource?: string }[];
  /** Dynamic Client Registration requests. */
  registrations: number;
  tokenRequests: { grantType?: string; resource?: string }[];
  /** Refresh grants honoured (refreshTokens servers), with the resource asked for. */
  refreshes: { resource?: string }[];
  /** Revocation requests (refreshTokens servers). */
  revocations: number;
  /** Every request to /mcp, with its Authorization header as sent. */
  mcp: { method: string; rpcMethod: string | null; authorization: string | null }[];
}

export interface ProtectedServer {
  /** http://127.0.0.1:PORT/mcp */
  url: string;
  /** The authorization server's issuer. */
  issuer: string;
  seen: ProtectedServerSeen;
  /** Forgets every access token, as a server does when they expire or are revoked. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

/** Starts an MCP server that requires bearer tokens, and its authorization server, on 127.0.0.1. */
export function startProtectedServer(options?: {
  prmResource?: string;
  refuseEveryToken?: boolean;
  cors?: boolean;
  refreshTokens?: boolean;
  lifetimeSeconds?: number;
}): Promise<ProtectedServer>;
