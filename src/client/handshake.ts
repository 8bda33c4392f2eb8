/**
 * Era detection and the two ways of opening a conversation: 2026-07-28 `server/discover` with
 * per-request `_meta`, and the legacy `initialize` handshake. Follows
 * 2026-07-28/basic/versioning.mdx: a recognized modern error or a discover result naming a modern
 * version means modern; anything else means legacy.
 */

import {
  type ClientCapabilities,
  type Era,
  type Implementation,
  isJsonObject,
  isLegacyVersion,
  isModernVersion,
  type JsonObject,
  LATEST_LEGACY,
  LATEST_MODERN,
  LEGACY_VERSIONS,
  McpError,
  META,
  MODERN_ERROR_CODES,
  MODERN_VERSIONS,
  type ProtocolVersion,
  pickVersion,
  type RpcEngine,
  type ServerCapabilities,
  TransportError,
  UnsupportedServerError,
} from '../protocol/index.js';

/** What a server told us about itself when the conversation opened. */
export interface ServerSession {
  era: Era;
  protocolVersion: ProtocolVersion;
  serverInfo?: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

export interface Introduction {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  timeoutMs: number;
}

/** The `_meta` every modern request carries. */
function modernMeta(version: string, intro: Introduction): JsonObject {
  return {
    [META.protocolVersion]: version,
    [META.clientInfo]: intro.clientInfo,
    [META.clientCapabilities]: intro.capabilities,
  };
}

/** Adds the modern `_meta` to a request's params, keeping what the caller put there. */
export function withModernMeta(params: JsonObject, version: string, intro: Introduction): JsonObject {
  const meta = isJsonObject(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, ...modernMeta(version, intro) } };
}

type ProbeOutcome = { era: 'modern'; session: ServerSession } | { era: 'legacy'; reason: string };

/**
 * Sends `server/discover` at the newest modern version. Resolves to the era; rejects only when the
 * failure says nothing about the era (the caller then tries legacy and reports that error if it fails too).
 */
export async function probeModern(
  engine: RpcEngine,
  intro: Introduction,
  version: string = LATEST_MODERN,
): Promise<ProbeOutcome> {
  try {
    return { era: 'modern', session: await discover(engine, intro, version) };
  } catch (error) {
    if (error instanceof McpError && MODERN_ERROR_CODES.has(error.code)) {
      const supported =
        isJsonObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : [];
      // Retry once with the newest version both sides speak (SEP-2575), even when the server lists
      // the one it just refused: its list is the authority, and one retry cannot loop.
      const retry = MODERN_VERSIONS.find((v) => supported.includes(v));
      if (retry) return { era: 'modern', session: await discover(engine, intro, retry) };
      const legacy = LEGACY_VERSIONS.find((v) => supported.includes(v));
      if (legacy) return { era: 'legacy', reason: `the server supports ${supported.join(', ')}` };
      throw new UnsupportedServerError(
        `${engine.transport.label} speaks MCP ${supported.join(', ') || '(no version listed)'}; Toolgate speaks ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(', ')}`,
      );
    }
    if (error instanceof NotModernError) return { era: 'legacy', reason: error.message };
    if (error instanceof McpError)
      return { era: 'legacy', reason: `server/discover failed: ${error.serverMessage}` };
    if (
      error instanceof TransportError &&
      error.failure !== 'cors-or-network' &&
      error.failure !== 'unreachable'
    )
      return { era: 'legacy', reason: error.message };
    throw error;
  }
}

class NotModernError extends Error {}

async function discover(engine: RpcEngine, intro: Introduction, version: string): Promise<ServerSession> {
  engine.transport.setProtocolVersion?.(version);
  const result = await engine.request('server/discover', withModernMeta({}, version, intro), {
    timeoutMs: intro.timeoutMs,
  });
  const supported = Array.isArray(result.supportedVersions) ? result.supportedVersions : undefined;
  // A legacy server may answer an unknown method with an empty result: only a version list proves modern.
  if (!supported) throw new NotModernError('server/discover returned no supportedVersions');
  const chosen = supported.includes(version) ? version : pickVersion(supported);
  if (!chosen || !isModernVersion(chosen)) {
    if (supported.some((v) => typeof v === 'string' && isLegacyVersion(v)))
      throw new NotModernError(`server/discover lists only legacy versions (${supported.join(', ')})`);
    throw new UnsupportedServerError(
      `${engine.transport.label} supports MCP ${supported.join(', ')}, none of which Toolgate speaks`,
    );
  }
  if (chosen !== version) engine.transport.setProtocolVersion?.(chosen);
  const meta = isJsonObject(result._meta) ? result._meta : {};
  const serverInfo = meta[META.serverInfo];
  return {
    era: 'modern',
    protocolVersion: chosen,
    capabilities: isJsonObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {},
    ...(isJsonObject(serverInfo) ? { serverInfo: serverInfo as Implementation } : {}),
    ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
  };
}

/** Opens a modern conversation at a forced version. */
export function discoverModern(
  engine: RpcEngine,
  intro: Introduction,
  version: string = LATEST_MODERN,
): Promise<ServerSession> {
  return discover(engine, intro, version);
}

/** The legacy handshake: initialize, check the negotiated version, then notifications/initialized. */
export async function initializeLegacy(
  engine: RpcEngine,
  intro: Introduction,
  version: string = LATEST_LEGACY,
): Promise<ServerSession> {
  const result = await engine.request(
    'initialize',
    { protocolVersion: version, capabilities: intro.capabilities, clientInfo: intro.clientInfo },
    { timeoutMs: intro.timeoutMs },
  );
  const negotiated = result.protocolVersion;
  if (typeof negotiated !== 'string' || !isLegacyVersion(negotiated)) {
    await engine.close();
    throw new UnsupportedServerError(
      `${engine.transport.label} answered initialize with protocol version ${JSON.stringify(negotiated)}, which Toolgate does not speak (it speaks ${LEGACY_VERSIONS.join(', ')} and ${MODERN_VERSIONS.join(', ')})`,
    );
  }
  engine.transport.setProtocolVersion?.(negotiated);
  await engine.notify('notifications/initialized');
  return {
    era: 'legacy',
    protocolVersion: negotiated,
    capabilities: isJsonObject(result.capabilities) ? (result.capabilities as ServerCapabilities) : {},
    ...(isJsonObject(result.serverInfo) ? { serverInfo: result.serverInfo as Implementation } : {}),
    ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
  };
}
