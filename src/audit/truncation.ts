/**
 * Large results are stored truncated: the log keeps a preview, the original size and a SHA-256 of
 * the full canonical JSON, so a copy kept elsewhere can still be matched to the entry.
 */

import { canonicalJson, sha256Hex } from '../protocol/index.js';

export const DEFAULT_MAX_RECORDED_BYTES = 64 * 1024;

interface TruncatedValue {
  truncated: true;
  originalBytes: number;
  sha256: string;
  /** The first characters of the canonical JSON. */
  preview: string;
}

/** The value itself when its canonical JSON fits in `maxBytes` (UTF-8), else a TruncatedValue. */
export async function truncateForAudit(
  value: unknown,
  maxBytes = DEFAULT_MAX_RECORDED_BYTES,
): Promise<unknown | TruncatedValue> {
  const text = canonicalJson(value);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes <= maxBytes) return value;
  return {
    truncated: true,
    originalBytes: bytes,
    sha256: await sha256Hex(text),
    preview: text.slice(0, Math.min(1024, Math.floor(maxBytes / 4))),
  };
}
