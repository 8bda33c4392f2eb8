/**
 * One sentence for a failed connection, naming the server. Transport errors already say the URL,
 * the cause (CORS, unreachable, mixed content, local network access, unsupported version) and the
 * fix; this only adds the server's name and a fallback for anything else.
 */
export function describeConnectError(serverLabel: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes(serverLabel)) return message;
  return `${serverLabel}: ${message}`;
}
