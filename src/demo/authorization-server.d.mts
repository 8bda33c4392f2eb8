export interface ProtectedResource {
  /** The MCP server's canonical URI (the audience of its tokens). */
  resource: string;
  scopes: string[];
}

export interface TokenFacts {
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  expiresAt: number;
  audience: string[];
  grantId: string;
}

export interface AuthorizationServer {
  issuer: string;
  /** The oidc-provider instance (its own types are not installed). */
  provider: unknown;
  introspect(token: string): Promise<TokenFacts | undefined>;
  revokeGrant(grantId: string): Promise<void>;
  close(): Promise<void>;
}

/** oidc-provider configured as an MCP authorization server on 127.0.0.1. */
export function startAuthorizationServer(options: {
  resources: ProtectedResource[];
  port?: number;
  accessTokenSeconds?: number;
  /** Accept Client ID Metadata Documents, fetched with this. */
  fetchClientMetadata?: (url: string, init: RequestInit) => Promise<Response>;
  configure?: (provider: {
    use(middleware: (ctx: unknown, next: () => Promise<void>) => Promise<void>): void;
  }) => void;
}): Promise<AuthorizationServer>;
