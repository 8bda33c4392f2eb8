/** A request as the redirector received it (see redirector.mjs). */
export interface SeenRequest {
  method: string;
  path: string;
  /** Every header, names lower-case. */
  headers: Record<string, string>;
}

/** A running redirector: a recording reverse proxy that can also redirect (see redirector.mjs). */
export interface Redirector {
  /** http://127.0.0.1:PORT */
  origin: string;
  seen(): SeenRequest[];
  close(): Promise<void>;
}

/** Starts a redirector on 127.0.0.1 in front of `upstream`; `/moved/<status>/…` redirects to `redirectTo`. */
export function startRedirector(options: {
  upstream: string;
  redirectTo?: string;
  port?: number;
}): Promise<Redirector>;
