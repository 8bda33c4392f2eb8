/**
 * A pass-through HTTP proxy that records every JSON-RPC message it forwards to a real server, for
 * servers that keep no record of their own (server-everything). What it records is what reached the
 * server's door: proof from the server side that a call was, or was not, sent. Responses (JSON or
 * SSE streams) are piped back untouched.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedMessage {
  method: string;
  id?: string | number;
  params?: Record<string, unknown>;
}

export interface RecordingProxy {
  /** The proxy's URL for the target's path (use it instead of the target's URL). */
  url: string;
  /** Every JSON-RPC request or notification forwarded so far, in order. */
  messages(): RecordedMessage[];
  /** The names of the tools called through the proxy. */
  toolCalls(): string[];
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /**
   * Runs before each request is forwarded (e.g. to change the server's state first, or to hold a
   * tools/call back), with the request's body.
   */
  beforeForward?: (request: http.IncomingMessage, body: Buffer) => Promise<void> | void;
}

export async function startRecordingProxy(
  target: string,
  options: RecordingProxyOptions = {},
): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const seen: RecordedMessage[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      await options.beforeForward?.(request, body);
      if (body.length > 0) {
        try {
          const parsed = JSON.parse(body.toString('utf8')) as unknown;
          for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
            const message = item as {
              method?: unknown;
              id?: string | number;
              params?: Record<string, unknown>;
            };
            if (typeof message.method === 'string')
              seen.push({
                method: message.method,
                ...(message.id !== undefined ? { id: message.id } : {}),
                ...(message.params ? { params: message.params } : {}),
              });
          }
        } catch {
          // Not JSON: forwarded all the same; the server answers it as it would anyway.
        }
      }
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: request.url,
          method: request.method,
          headers: { ...request.headers, host: upstream.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', (error) => response.writeHead(502).end(String(error)));
      // The client went away mid-answer (a closed SSE stream): stop reading the server's answer too.
      response.on('close', () => {
        if (!response.writableFinished) forward.destroy();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}${upstream.search}`,
    messages: () => [...seen],
    toolCalls: () => seen.filter((m) => m.method === 'tools/call').map((m) => String(m.params?.name)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
