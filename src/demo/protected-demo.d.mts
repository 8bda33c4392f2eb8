import type { IncomingMessage, ServerResponse } from 'node:http';

export const PROTECTED_PATH: string;

export interface ProtectedDemo {
  /** The protected MCP endpoint (http://127.0.0.1:PORT/protected/mcp). */
  url: string;
  /** The local authorization server (oidc-provider). */
  issuer: string;
  handles(path: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

/** Starts the local authorization server and the protected MCP server of `npm start`'s demo. */
export function startProtectedDemo(options: { origin: string; authPort?: number }): Promise<ProtectedDemo>;
