/**
 * Verification on read: the bytes of a skill file must have exactly the size and SHA-256 the held
 * entry lists, or they are not used. Size is checked first, so an oversized answer fails without
 * being hashed (the spec makes a size mismatch a failure whether or not the digest is computed).
 */

import { isJsonObject, type JsonObject, ToolgateError } from '../protocol/index.js';
import type { SkillResource } from './types.js';

/** Why a skill or one of its files was not used. */
export type VerificationReason =
  /** The byte length is not the listed size. */
  | 'size'
  /** The SHA-256 is not the listed digest. */
  | 'digest'
  /** SKILL.md's frontmatter is unreadable or differs from the entry's. */
  | 'frontmatter'
  /** The file is not in the held manifest (while acting on the skill, an unlisted file is a change). */
  | 'unlisted'
  /** The answer held no single content for the file, or a blob that is not base64. */
  | 'unreadable';

/** A skill file that failed verification: its content was not used. */
export class SkillVerificationError extends ToolgateError {
  readonly kind = 'skill-verification';
  constructor(
    readonly reason: VerificationReason,
    readonly serverId: string,
    readonly uri: string,
    detail: string,
  ) {
    super(
      `${serverId}: ${uri} failed verification (${detail}); Toolgate did not use it. ` +
        'If the skill was updated, refresh it and approve it again.',
    );
    this.name = 'SkillVerificationError';
  }
}

/** One file's content as `resources/read` returned it. */
export interface FileContent {
  bytes: Uint8Array;
  mimeType?: string;
}

/**
 * The bytes of `uri` in a `resources/read` result: exactly one content item for that URI, text
 * (UTF-8 encoded, as the digest covers the file's raw bytes) or a base64 blob.
 */
export function contentOf(result: JsonObject, serverId: string, uri: string): FileContent {
  const fail = (detail: string) => new SkillVerificationError('unreadable', serverId, uri, detail);
  const contents = Array.isArray(result.contents) ? result.contents : undefined;
  if (!contents) throw fail('the answer has no contents');
  const matching = contents.filter((item) => isJsonObject(item) && item.uri === uri) as JsonObject[];
  if (matching.length !== 1)
    throw fail(
      matching.length === 0
        ? 'the answer has no content for this URI'
        : 'the answer has several contents for this URI',
    );
  const item = matching[0]!;
  const mimeType = typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {};
  if (typeof item.text === 'string' && item.blob === undefined)
    return { bytes: new TextEncoder().encode(item.text), ...mimeType };
  if (typeof item.blob === 'string' && item.text === undefined) {
    const bytes = decodeBase64(item.blob);
    if (!bytes) throw fail('its blob is not base64');
    return { bytes, ...mimeType };
  }
  throw fail('the content is neither text nor a blob');
}

/** Throws SkillVerificationError unless `bytes` have the listed size and digest. */
export async function verifyFile(serverId: string, listed: SkillResource, bytes: Uint8Array): Promise<void> {
  if (bytes.byteLength !== listed.size)
    throw new SkillVerificationError(
      'size',
      serverId,
      listed.uri,
      `${bytes.byteLength} bytes where the manifest lists ${listed.size}`,
    );
  const digest = await sha256Digest(bytes);
  if (digest !== listed.digest)
    throw new SkillVerificationError(
      'digest',
      serverId,
      listed.uri,
      `its SHA-256 is ${digest.slice(0, 19)}…, the manifest lists ${listed.digest.slice(0, 19)}…`,
    );
}

/** `sha256:` + lowercase hex of the bytes (WebCrypto). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/** Strict base64 (padding optional, no whitespace), or undefined. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) return undefined;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    // Not base64: the caller reports the file as unreadable.
    return undefined;
  }
}

/** UTF-8 text of bytes, or undefined when they are not valid UTF-8 (a binary file). */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: a binary file, which has bytes but no text.
    return undefined;
  }
}
