/**
 * One sentence for a failed connection, naming the server and saying what to do. Transport errors
 * already say the URL, the cause and the fix; this adds the server's name, and tells apart the two
 * failures a browser reports alike (a bare "Failed to fetch"): the server is down, or it is running
 * but its CORS settings do not let this page in.
 */

/** What a TransportError carries; read by shape so the error classes stay out of the first load. */
interface TransportFailure {
  name: 'TransportError';
  message: string;
  url: string;
  failure: string;
}

const isTransportFailure = (error: unknown): error is TransportFailure =>
  error instanceof Error &&
  error.name === 'TransportError' &&
  typeof (error as Partial<TransportFailure>).failure === 'string' &&
  typeof (error as Partial<TransportFailure>).url === 'string';

/** `declined`: the person chose not to sign in; nothing failed, and signing in is the way on. */
export type ConnectFailureCause = 'down' | 'cors' | 'declined' | 'other';

export interface ConnectProblem {
  /** What happened and what to do, naming the server. */
  message: string;
  cause: ConnectFailureCause;
  /** The transport's technical explanation, when the message leaves it out. */
  detail?: string;
}

export function describeConnectError(serverLabel: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes(serverLabel)) return message;
  return `${serverLabel}: ${message}`;
}

/** Whether anything answers at `url`, whatever its CORS settings say. */
export type Reachability = (url: string) => Promise<boolean>;

const PROBE_TIMEOUT_MS = 5000;

/**
 * A no-cors HEAD reaches a running server whatever its CORS settings (its answer is opaque: nothing of
 * it can be read, and no credentials are sent) and fails only when nothing answers.
 */
export async function probeReachable(url: string, fetchFn: typeof fetch = fetch): Promise<boolean> {
  try {
    await fetchFn(url, {
      method: 'HEAD',
      mode: 'no-cors',
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    return true;
  } catch {
    // The probe failing even without CORS means the server is not reachable at all.
    return false;
  }
}

export async function explainConnectError(
  serverLabel: string,
  error: unknown,
  url: string | undefined,
  reachable: Reachability = probeReachable,
): Promise<ConnectProblem> {
  if (declinedSignIn(error))
    return {
      message: `You chose not to sign in to ${serverLabel} now, so it is not connected. Sign in when you want to use it.`,
      cause: 'declined',
    };
  const other: ConnectProblem = { message: describeConnectError(serverLabel, error), cause: 'other' };
  if (!isTransportFailure(error)) return other;
  const detail = error.message;
  if (error.failure === 'unreachable')
    return { message: downMessage(serverLabel, error.url), cause: 'down', detail };
  if (error.failure !== 'cors-or-network' || !url || blockedAsMixedContent(url)) return other;
  if (!(await reachable(url))) {
    // The transport's text names CORS as a possible cause, which the probe just ruled out: leave it.
    const localNetwork = /local network access/.test(detail)
      ? ' If the browser asked whether this page may reach your local network, allow it.'
      : '';
    return { message: downMessage(serverLabel, error.url) + localNetwork, cause: 'down' };
  }
  const origin = globalThis.location?.origin;
  return {
    message:
      `${serverLabel} is running, but its CORS settings do not let this page${origin ? ` (${origin})` : ''} ` +
      'use it. Whoever runs the server must allow this origin (the headers it needs are in the details); ' +
      'then press Retry.',
    cause: 'cors',
    detail,
  };
}

/** An AuthorizationError the person's "not now" ended, read by shape (the OAuth layer loads lazily). */
function declinedSignIn(error: unknown): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++)
    if (at.name === 'AuthorizationError' && (at as { declined?: unknown }).declined === true) return true;
  return false;
}

const downMessage = (label: string, url: string) =>
  `${label} did not answer at ${url}: the server is down or the address is wrong. Check that it is ` +
  'running and that the URL (host, port and path) is right, then press Retry.';

/** An https page may not reach a plain http server other than this machine: the probe would fail too. */
function blockedAsMixedContent(url: string): boolean {
  if (globalThis.location?.protocol !== 'https:' || !url.startsWith('http:')) return false;
  const host = new URL(url).hostname;
  return !(host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost'));
}
