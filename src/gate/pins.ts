/**
 * Pinned tool definitions (rug-pull protection). A remembered approval is bound to
 * (server identity, tool name, definition hash); when a relisting brings a different hash, the
 * approval no longer applies.
 *
 * What is pinned is exactly what the issue names: name, title, description, inputSchema,
 * outputSchema, annotations (the whole object, annotations.title and unknown hints included).
 * These are what the model reads to decide how to use a tool and what the person was shown when
 * approving it. Left out on purpose:
 * - `_meta`: protocol bookkeeping that servers may rewrite on every listing (trace ids, versions);
 *   pinning it would re-ask for approval when nothing a model or person relies on changed.
 * - `icons`: display-only pixels, never shown to the model; the tool's name and title identify it.
 * - `execution` (taskSupport): how the client runs the call (task-augmented or not), enforced by
 *   the client; it does not change what the tool does with the arguments.
 * - unknown top-level fields: not part of the definition any revision specifies.
 */

import { canonicalJson, type JsonObject, type Tool } from '../protocol/index.js';
import type { PinnedTool } from './types.js';

/** The fields a definition hash covers, in the order a diff presents them. */
const PINNED_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** The pinned part of a tool: exactly the pinned fields, absent (undefined) ones omitted. */
export function definitionOf(tool: Tool): JsonObject {
  const definition: JsonObject = {};
  for (const field of PINNED_FIELDS) {
    const value = tool[field];
    if (value !== undefined) definition[field] = value;
  }
  return definition;
}

/** `sha256:` + hex SHA-256 of the canonical JSON of the pinned fields (synchronous). */
export function hashDefinitionSync(tool: Tool): string {
  return `sha256:${sha256HexSync(canonicalJson(definitionOf(tool)))}`;
}

/**
 * `sha256:` + hex SHA-256 of the canonical JSON of the pinned fields. Equal to
 * `'sha256:' + await sha256Hex(canonicalJson(definitionOf(tool)))`, computed without WebCrypto's
 * per-call round trip (see `sha256HexSync`).
 */
export async function hashDefinition(tool: Tool): Promise<string> {
  return hashDefinitionSync(tool);
}

/** Pins one tool of one server, hashing it now. */
export async function pinTool(serverId: string, tool: Tool): Promise<PinnedTool> {
  return { serverId, tool, definitionHash: hashDefinitionSync(tool) };
}

/** The pins of one connection. Each distinct tool object is hashed at most once, when first needed. */
export interface ToolPins {
  readonly serverId: string;
  /** A pin whose `definitionHash` is computed on first read (then cached for that tool object). */
  pin(tool: Tool): PinnedTool;
  /** Pins a whole listing; costs no hashing until a hash is read. */
  pinAll(tools: readonly Tool[]): PinnedTool[];
  /** The definition hash of `tool`, cached per tool object. */
  hashOf(tool: Tool): string;
}

/**
 * Creates the pin cache of one connection. Hashing is lazy because a listing of 10,000 tools is
 * pinned at once, yet only tools that are called (or compared with a remembered approval) need a
 * hash. The cache is keyed by object identity: the catalog replaces tool objects on every listing
 * and never mutates them, so an object's definition, and hence its hash, is fixed.
 */
export function createToolPins(serverId: string): ToolPins {
  const hashes = new WeakMap<Tool, string>();
  const hashOf = (tool: Tool): string => {
    let hash = hashes.get(tool);
    if (hash === undefined) {
      hash = hashDefinitionSync(tool);
      hashes.set(tool, hash);
    }
    return hash;
  };
  const pin = (tool: Tool): PinnedTool => ({
    serverId,
    tool,
    // An enumerable getter: spread, JSON.stringify and structuredClone all read the value.
    get definitionHash() {
      return hashOf(tool);
    },
  });
  return { serverId, pin, pinAll: (tools) => tools.map(pin), hashOf };
}

// ---------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4) in plain JavaScript.
//
// WebCrypto's digest is asynchronous: each call is a round trip to another thread (in Node about
// 30-100 µs each on this machine; 10,000 calls took 300-700 ms even with Promise.all). A lazy
// getter needs a synchronous hash anyway. Inputs are small (a definition is typically < 2 KB), so a
// plain implementation is fast enough; the tests check it against WebCrypto on many inputs.
// ---------------------------------------------------------------------------------------------

const ROUND_CONSTANTS = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL_STATE = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
const schedule = new Int32Array(64);
const utf8 = new TextEncoder();
// Reused between calls (hashing is synchronous, so calls never interleave); a rare huge definition
// gets its own buffer so the shared one stays small.
const SHARED_BLOCK_BYTES = 64 * 1024;
const sharedBlock = new Uint8Array(SHARED_BLOCK_BYTES);

/** SHA-256 of a string's UTF-8 bytes as lowercase hex, synchronously (same result as `sha256Hex`). */
export function sha256HexSync(text: string): string {
  // UTF-8 needs at most 3 bytes per UTF-16 code unit; 72 leaves room for the padding.
  const room = text.length * 3 + 72;
  const bytes = room <= SHARED_BLOCK_BYTES ? sharedBlock : new Uint8Array(room);
  const length = utf8.encodeInto(text, bytes).written;
  const padded = ((length + 9 + 63) >>> 6) << 6;
  bytes[length] = 0x80;
  bytes.fill(0, length + 1, padded);
  const bitLength = length * 8;
  const high = Math.floor(bitLength / 0x100000000);
  const low = bitLength >>> 0;
  bytes[padded - 8] = high >>> 24;
  bytes[padded - 7] = high >>> 16;
  bytes[padded - 6] = high >>> 8;
  bytes[padded - 5] = high;
  bytes[padded - 4] = low >>> 24;
  bytes[padded - 3] = low >>> 16;
  bytes[padded - 2] = low >>> 8;
  bytes[padded - 1] = low;

  const w = schedule;
  const k = ROUND_CONSTANTS;
  let [h0, h1, h2, h3, h4, h5, h6, h7] = INITIAL_STATE as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  for (let offset = 0; offset < padded; offset += 64) {
    for (let i = 0; i < 16; i++) {
      const at = offset + i * 4;
      w[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const choice = (e & f) ^ (~e & g);
      const t1 = (h + sum1 + choice + k[i]! + w[i]!) | 0;
      const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const majority = (a & b) ^ (a & c) ^ (b & c);
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + sum0 + majority) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  let hex = '';
  for (const word of [h0, h1, h2, h3, h4, h5, h6, h7]) hex += (word >>> 0).toString(16).padStart(8, '0');
  return hex;
}
