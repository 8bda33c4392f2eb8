/** oidc-provider with client credentials, and an SDK-built protected MCP server (see the .mjs). */
export interface ClientCredentialsServers {
  /** The MCP endpoint, whose resource the tokens are for. */
  url: string;
  /** Grants the authorization server issued, and whether the client authenticated with a JWT. */
  tokenRequests: { clientId: string | undefined; assertion: boolean }[];
  /** Every request to the MCP endpoint, with its Authorization header as sent. */
  mcpRequests: { authorization: string | null }[];
  /** Ends every token issued so far, as an operator revoking them does. */
  revokeAll(): Promise<void>;
  close(): Promise<void>;
}

/** Starts both on 127.0.0.1; `secret` is secret-app's, `publicJwk` key-app's public key. */
export function startClientCredentials(options: {
  publicJwk: JsonWebKey;
  secret: string;
  /** Access token lifetime; default an hour. */
  tokenSeconds?: number;
}): Promise<ClientCredentialsServers>;
