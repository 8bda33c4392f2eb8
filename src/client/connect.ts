/**
 * connect(): picks the transport and the era, opens the conversation, and hands back an McpClient.
 *
 * HTTP, automatic: POST `server/discover` (modern); if the answer is not modern, `initialize` over
 * Streamable HTTP (legacy); if that endpoint refuses POST with 400/404/405 and no JSON-RPC body, the
 * 2024-11-05 HTTP+SSE transport. Other transports: the stdio-style probe (discover, any non-modern
 * error or silence means legacy). The era found is cached per endpoint for this page's lifetime.
 *
 * Signing in (the `auth` option, or a fetch that signs in): a sign-in that fails ends connect()
 * with its AuthorizationError; no other era or transport is tried, since each would only meet the
 * same refusal and hide it. A handshake that times out while the person is still in the sign-in
 * window is started again once they are done, rather than read as a server that does not answer.
 */

import type { AuthorizationError, ServerSignIn } from '../auth/index.js';
import {
  ConnectionClosedError,
  type Era,
  isLegacyVersion,
  isModernVersion,
  RpcEngine,
  redactUrlWhenNeeded,
  TASKS_EXTENSION_ID,
  TransportError,
  UI_EXTENSION_ID,
  UI_MIME_TYPE,
  UnsupportedServerError,
} from '../protocol/index.js';
import { resolveLimits, StreamableHttpCore, streamableHttpFor, type Transport } from '../transport/index.js';
import { McpClient } from './client.js';
import {
  discoverModern,
  type Introduction,
  initializeLegacy,
  probeModern,
  type ServerSession,
} from './handshake.js';
import { type ConnectOptions, DEFAULT_CLIENT_INFO } from './options.js';
import { serverAddress } from './server-id.js';

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
/** How long connect() waits for a legacy server's GET stream before returning anyway. */
const SERVER_STREAM_WAIT_MS = 1_000;
/** Handshakes started again after a sign-in outlasted them (a sign-in, then at most two step-ups). */
const MAX_SIGN_IN_WAITS = 3;

/** Each connected client's sign-in, for "Sign out" (see signInOf). */
const signIns = new WeakMap<McpClient, ServerSignIn>();

/**
 * The sign-in of a client connected with `auth` (or over a fetch from createLazyOAuthFetch):
 * signedIn(), signOut(), retrySignIn(). Undefined for a client that cannot sign in.
 */
export function signInOf(client: McpClient): ServerSignIn | undefined {
  return signIns.get(client);
}

/** Era per endpoint, as the spec suggests (a property of the server, not of one request). */
const eraCache = new Map<string, Era | 'sse'>();

/** Forgets cached era decisions (tests, or after a server upgrade). */
export function clearEraCache(): void {
  eraCache.clear();
}

/** Connects to one MCP server and opens the conversation in the era it speaks. */
export async function connect(options: ConnectOptions): Promise<McpClient> {
  if (!options.url && !options.transport) throw new TypeError('connect() needs a url or a transport');
  const intro: Introduction = {
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    capabilities: {
      ...(options.onElicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
      // MCP Apps (SEP-1865): the panel renders ui:// resources (src/apps/); declared in both eras.
      // Tasks (2026-07-28 extension): every modern request carries these, so each declares it and a
      // server may answer a tools/call with a task (client/tasks.ts follows it).
      extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] }, [TASKS_EXTENSION_ID]: {} },
    },
    timeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
  };
  const forced = forcedEra(options);
  let watch: SignInWatch | undefined;
  let opened: Opened;
  if (options.transport)
    opened = await openOverTransport(withLimits(options.transport, options), intro, forced, options);
  else {
    const url = new URL(String(options.url));
    watch = await watchSignIn(url, options);
    const overHttp = watch ? { ...options, fetch: watch.fetch } : options;
    opened = await openWithSignIn(() => openOverHttp(url, intro, forced, overHttp, watch), watch);
  }
  const serverId = options.id ?? (await defaultServerId(options, opened.engine.transport));
  const client = new McpClient(serverId, opened.engine, opened.session, intro, options);
  if (watch?.signIn) signIns.set(client, watch.signIn);
  return client;
}

/** What connect() knows of the sign-in under a server's fetch while it opens the conversation. */
interface SignInWatch {
  /** The fetch the transports use: the signing-in fetch, noting its failures. */
  fetch: typeof fetch;
  /** The first sign-in failure seen. */
  failure: AuthorizationError | undefined;
  signIn: ServerSignIn | undefined;
  /** True for a sign-in failure (an AuthorizationError): only a signing fetch throws one. */
  isSignInFailure: (error: unknown) => error is AuthorizationError;
}

/** Installs the `auth` option's fetch, and watches any fetch for sign-in failures. */
async function watchSignIn(url: URL, options: ConnectOptions): Promise<SignInWatch | undefined> {
  let signing: typeof fetch | undefined = options.fetch;
  if (options.auth) {
    // Only servers configured with `auth` load this (0.5 KB); the OAuth code waits for a 401.
    const { signInFetch } = await import('../auth/connect-auth.js');
    signing = signInFetch(url, options.auth, options.fetch);
  }
  if (!signing) return undefined;
  const base = signing;
  // Without a fetch of the caller's own or `auth`, no sign-in can fail: the class loads only here.
  const { AuthorizationError } = await import('../auth/errors.js');
  const watch: SignInWatch = {
    failure: undefined,
    signIn: isServerSignIn(base) ? base : undefined,
    isSignInFailure: (error): error is AuthorizationError => error instanceof AuthorizationError,
    fetch: async (input, init) => {
      try {
        return await base(input, init);
      } catch (error) {
        if (watch.isSignInFailure(error)) watch.failure ??= error;
        throw error;
      }
    },
  };
  return watch;
}

function isServerSignIn(value: unknown): value is ServerSignIn {
  const candidate = value as Partial<ServerSignIn>;
  return (
    typeof candidate.signOut === 'function' &&
    typeof candidate.signedIn === 'function' &&
    typeof candidate.signInInProgress === 'function'
  );
}

/**
 * Opens the conversation; when it failed while the person was still signing in (its requests
 * timed out waiting), waits for the sign-in to end and opens it again, a bounded number of times.
 */
async function openWithSignIn(open: () => Promise<Opened>, watch: SignInWatch | undefined): Promise<Opened> {
  for (let waits = 0; ; waits++) {
    try {
      return await open();
    } catch (error) {
      if (watch?.failure) throw watch.failure;
      const inProgress = watch?.signIn?.signInInProgress();
      if (!inProgress || waits >= MAX_SIGN_IN_WAITS) throw error;
      await inProgress;
      if (watch?.failure) throw watch.failure;
    }
  }
}

/**
 * The error that ends connect() here instead of a fallback to another era or transport: a sign-in
 * failure, or any failure while a sign-in is still in progress (openWithSignIn waits for it).
 */
function signInStop(watch: SignInWatch | undefined, error?: unknown): unknown {
  // Without a watch the fetch is the global one, which never throws an AuthorizationError.
  if (watch?.isSignInFailure(error)) return error;
  if (watch?.failure) return watch.failure;
  if (error !== undefined && watch?.signIn?.signInInProgress()) return error;
  return undefined;
}

interface Opened {
  engine: RpcEngine;
  session: ServerSession;
}

function forcedEra(options: ConnectOptions): Era | undefined {
  const version = options.protocolVersion;
  if (version !== undefined) {
    if (isModernVersion(version)) return 'modern';
    if (isLegacyVersion(version)) return 'legacy';
    throw new UnsupportedServerError(`protocol version ${version} is not one Toolgate speaks`);
  }
  return options.era === 'modern' || options.era === 'legacy' ? options.era : undefined;
}

function engineFor(transport: Transport, era: Era, options: ConnectOptions): RpcEngine {
  const overHttp = transport instanceof StreamableHttpCore;
  return new RpcEngine(transport, {
    // On modern Streamable HTTP, closing the response stream is the cancellation; elsewhere, say it.
    cancellation: era === 'modern' && overHttp ? 'close-stream' : 'notification',
    reissueLostRequests: era === 'modern',
    onViolation: (reason) =>
      options.onWarning?.({
        serverId: options.id ?? transport.label,
        code: 'malformed-message',
        message: reason,
      }),
  });
}

async function openOverHttp(
  url: URL,
  intro: Introduction,
  forced: Era | undefined,
  options: ConnectOptions,
  watch: SignInWatch | undefined,
): Promise<Opened> {
  const cacheKey = `${url.origin}${url.pathname}`;
  const make = () =>
    streamableHttpFor(url, { headers: options.headers, fetch: options.fetch, limits: options.limits });
  if (options.httpTransport === 'sse' || (!forced && eraCache.get(cacheKey) === 'sse'))
    return openLegacySse(url, intro, options, watch);

  const cached = eraCache.get(cacheKey);
  let modernFailure: unknown;
  if (forced !== 'legacy' && (forced === 'modern' || cached !== 'legacy')) {
    const transport = await make();
    await transport.start();
    const engine = engineFor(transport, 'modern', options);
    try {
      if (forced === 'modern') {
        const session = await discoverModern(engine, intro, options.protocolVersion ?? undefined);
        eraCache.set(cacheKey, 'modern');
        return { engine, session };
      }
      const outcome = await probeModern(engine, intro);
      if (outcome.era === 'modern') {
        eraCache.set(cacheKey, 'modern');
        return { engine, session: outcome.session };
      }
      // The probe reads a refused sign-in as "not modern": it is the answer, not the era.
      const stop = signInStop(watch);
      if (stop) throw stop;
    } catch (error) {
      const stop = signInStop(watch, error);
      if (stop) {
        await engine.close().catch(() => undefined);
        throw stop;
      }
      if (forced === 'modern' || error instanceof UnsupportedServerError) throw error;
      // Network-level failures say nothing of the era (a legacy server's CORS may refuse our modern
      // headers): try legacy, and report this error only if legacy fails too.
      modernFailure = error;
    }
    await engine.close().catch(() => undefined);
  }

  const transport = await make();
  await transport.start();
  const engine = engineFor(transport, 'legacy', options);
  try {
    const session = await initializeSession(engine, intro, options);
    eraCache.set(cacheKey, 'legacy');
    const stream = transport.openServerStream().catch((error: unknown) =>
      options.onWarning?.({
        serverId: options.id ?? transport.label,
        code: 'server-stream',
        message: `could not open the server-to-client stream: ${(error as Error).message}`,
      }),
    );
    // Wait (briefly) until the server can reach us: SDK servers drop requests sent before the stream opens.
    await Promise.race([stream, new Promise((resolve) => setTimeout(resolve, SERVER_STREAM_WAIT_MS))]);
    return { engine, session };
  } catch (error) {
    await engine.close().catch(() => undefined);
    const stop = signInStop(watch, error);
    if (stop) throw stop;
    // A server that lost every new session answered 404 as an MCP server: no other transport to try.
    if (options.httpTransport !== 'streamable-http' && !transport.failure && refusesPost(error)) {
      const opened = await openLegacySse(url, intro, options, watch).catch((sseError: unknown) => {
        throw preferInformative(error, sseError);
      });
      eraCache.set(cacheKey, 'sse');
      return opened;
    }
    throw modernFailure && !(error instanceof TransportError) ? modernFailure : error;
  }
}

/**
 * The legacy handshake over Streamable HTTP, started again while the server forgets the new session
 * at once (HTTP 404 to `notifications/initialized`). The transport bounds the new sessions in a row
 * (limits.maxSessionRestarts): past it, it fails with an error that is not 'session-expired'.
 */
async function initializeSession(
  engine: RpcEngine,
  intro: Introduction,
  options: ConnectOptions,
): Promise<ServerSession> {
  const restarts = resolveLimits(options.limits).maxSessionRestarts;
  for (let attempt = 0; ; attempt++) {
    try {
      return await initializeLegacy(engine, intro, options.protocolVersion);
    } catch (error) {
      // The transport's bound ends this first; the count here only guards against one that has none.
      if (!(error instanceof TransportError && error.failure === 'session-expired') || attempt >= restarts)
        throw error;
    }
  }
}

/** Gives a transport the caller made the per-server limits, when any were set. */
function withLimits(transport: Transport, options: ConnectOptions): Transport {
  if (options.limits) transport.applyLimits?.(options.limits);
  return transport;
}

/** 400/404/405 without a JSON-RPC answer: the URL may be a 2024-11-05 HTTP+SSE endpoint. */
function refusesPost(error: unknown): boolean {
  return (
    error instanceof TransportError &&
    (error.failure === 'http-status' ||
      error.failure === 'html-page' ||
      error.failure === 'wrong-content-type') &&
    (error.status === 400 || error.status === 404 || error.status === 405)
  );
}

function preferInformative(streamableError: unknown, sseError: unknown): unknown {
  // When the SSE attempt got nowhere either, the Streamable HTTP error usually names the real problem;
  // an event stream that opened but never named its endpoint ('no-endpoint') is the real problem itself.
  return sseError instanceof TransportError &&
    sseError.failure !== 'not-mcp' &&
    sseError.failure !== 'wrong-content-type'
    ? sseError
    : streamableError;
}

async function openLegacySse(
  url: URL,
  intro: Introduction,
  options: ConnectOptions,
  watch: SignInWatch | undefined,
): Promise<Opened> {
  // Only 2024-11-05 servers need it, so it is a chunk of its own in the widget's bundle.
  const { HttpSseTransport } = await import('../transport/http-sse.js');
  const transport = new HttpSseTransport(url, {
    // The stream's first event names where to post: waiting for it is part of connecting.
    endpointTimeoutMs: intro.timeoutMs,
    headers: options.headers,
    fetch: options.fetch,
    limits: options.limits,
  });
  await transport.start();
  const engine = engineFor(transport, 'legacy', options);
  try {
    return { engine, session: await initializeLegacy(engine, intro, options.protocolVersion) };
  } catch (error) {
    await engine.close().catch(() => undefined);
    throw signInStop(watch, error) ?? error;
  }
}

async function openOverTransport(
  transport: Transport,
  intro: Introduction,
  forced: Era | undefined,
  options: ConnectOptions,
): Promise<Opened> {
  await transport.start();
  if (forced === 'legacy') {
    const engine = engineFor(transport, 'legacy', options);
    return { engine, session: await initializeLegacy(engine, intro, options.protocolVersion) };
  }
  const engine = engineFor(transport, 'modern', options);
  if (forced === 'modern')
    return { engine, session: await discoverModern(engine, intro, options.protocolVersion) };
  const probeIntro = { ...intro, timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS };
  const outcome = await probeModern(engine, probeIntro).catch((error: unknown) => {
    // Silence or a closed channel on a non-HTTP transport means "not modern" (stdio rule); anything else is real.
    if (error instanceof ConnectionClosedError) throw error;
    return { era: 'legacy' as const, reason: String(error) };
  });
  if (outcome.era === 'modern') return { engine, session: outcome.session };
  engine.configure({ cancellation: 'notification', reissueLostRequests: false });
  return { engine, session: await initializeLegacy(engine, intro, options.protocolVersion) };
}

/**
 * The server's id from its address: serverIdForUrl, with the URL rule loaded only for an address
 * that may carry a secret.
 */
async function defaultServerId(options: ConnectOptions, transport: Transport): Promise<string> {
  if (options.url) return redactUrlWhenNeeded(serverAddress(new URL(String(options.url))));
  return transport.label;
}
