/** What oidc-provider and the SDK-built MCP servers behind it saw (see oidc-protected.mjs). */
export interface OidcProtectedSeen {
  /** Authorization requests, with the scopes and resource asked for. */
  authorizations: { scopes: string[]; resource?: string }[];
  tokenRequests: { grantType?: string; resource?: string }[];
  /** Dynamic Client Registration requests. */
  registrations: number;
  /** Revocation requests. */
  revocations: number;
  /** Every request to an MCP endpoint, with its path and Authorization header as sent. */
  mcp: { path: string; method: string; rpcMethod: string | null; authorization: string | null }[];
  /** Requests to /dpop/mcp whose token and DPoP proof passed, with the key the token is bound to. */
  dpopVerified: { token: string; jkt: string }[];
}

export const FORGED_STATE: string;

export interface OidcProtected {
  urls: {
    good: string;
    refuses: string;
    notJson: string;
    elsewhere: string;
    plainHttp: string;
    /** Takes only DPoP-bound tokens. */
    dpop: string;
  };
  /** oidc-provider's issuer (http://127.0.0.1:PORT). */
  issuer: string;
  seen: OidcProtectedSeen;
  forgeState(on: boolean): void;
  revokeGrants(): Promise<void>;
  close(): Promise<void>;
}

/** Starts oidc-provider and the protected MCP servers on 127.0.0.1. */
export function startOidcProtected(options?: {
  accessTokenSeconds?: number;
  /** false: the authorization server's answers carry no CORS headers at all. */
  authorizationServerCors?: boolean;
}): Promise<OidcProtected>;
