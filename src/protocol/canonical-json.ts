/**
 * Canonical JSON (sorted object keys, no whitespace, undefined members dropped) and hashes over it.
 * Used wherever two JSON values must compare or hash equal regardless of key order: tool definition
 * pins, validator caches, and the audit chain.
 */

/** Serializes `value` with object keys sorted at every level. Throws on cycles and non-JSON numbers. */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new TypeError('canonical JSON has no representation for NaN or Infinity');
    return JSON.stringify(value);
  }
  if (typeof value !== 'object') throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
  if (ancestors.has(value)) throw new TypeError('canonical JSON cannot encode a cycle');
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => (item === undefined ? 'null' : write(item, ancestors))).join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${write(member, ancestors)}`);
    }
    text = `{${members.join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}

/** SHA-256 of a string's UTF-8 bytes, as lowercase hex (WebCrypto: browsers, workers, Node >= 20). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * A fast, non-cryptographic 53-bit hash (cyrb53) for cache keys where speed matters and collisions
 * only cost a cache miss check. Never use it for integrity.
 */
export function quickHash(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
