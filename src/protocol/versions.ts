/** Protocol revisions Toolgate speaks, newest first in each era. */

export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export type ModernVersion = (typeof MODERN_VERSIONS)[number];
export type LegacyVersion = (typeof LEGACY_VERSIONS)[number];
export type ProtocolVersion = ModernVersion | LegacyVersion;
export type Era = 'modern' | 'legacy';

export const LATEST_MODERN: ModernVersion = MODERN_VERSIONS[0];
export const LATEST_LEGACY: LegacyVersion = LEGACY_VERSIONS[0];

export function isModernVersion(version: string): version is ModernVersion {
  return (MODERN_VERSIONS as readonly string[]).includes(version);
}

export function isLegacyVersion(version: string): version is LegacyVersion {
  return (LEGACY_VERSIONS as readonly string[]).includes(version);
}

/** Picks the newest version we speak out of the ones a server lists; undefined when none match. */
export function pickVersion(supported: readonly unknown[]): ProtocolVersion | undefined {
  for (const mine of [...MODERN_VERSIONS, ...LEGACY_VERSIONS]) if (supported.includes(mine)) return mine;
  return undefined;
}

/** `_meta` keys of the modern era. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;
