/**
 * Model-safe tool names. MCP tools are addressed as `serverId/toolName`, but model APIs only accept
 * short names from a small alphabet, and the model answers with the name it was given. So the host
 * needs a two-way map: a readable, unique, valid name per tool, and the way back from that name.
 *
 * Names are a pure function of the set of tools (not of their order), so a conversation that lists
 * the same tools again gets the same names, and a name seen in an earlier turn still resolves.
 */

import { qualifyToolName } from '../../client/index.js';

/** What one model API accepts as a tool name. */
export interface ToolNameRules {
  /** The API, for error messages. */
  api: string;
  /** The documented rule for a whole name; every name the map makes matches it. */
  pattern: RegExp;
  /** One character a name may hold; any other character becomes `_`. */
  allowedChar: RegExp;
  /** What the first character must be; a name that starts otherwise gets a leading `_`. */
  firstChar?: RegExp;
  maxLength: number;
}

/** OpenAI (chat completions and responses): "a-z, A-Z, 0-9, underscores and dashes, at most 64". */
export const OPENAI_TOOL_NAMES: ToolNameRules = {
  api: 'OpenAI',
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  allowedChar: /^[a-zA-Z0-9_-]$/,
  maxLength: 64,
};

/** Anthropic Messages: the tool name "must match the regex ^[a-zA-Z0-9_-]{1,64}$". */
export const ANTHROPIC_TOOL_NAMES: ToolNameRules = {
  api: 'Anthropic',
  pattern: /^[a-zA-Z0-9_-]{1,64}$/,
  allowedChar: /^[a-zA-Z0-9_-]$/,
  maxLength: 64,
};

/**
 * Gemini FunctionDeclaration: "must start with a letter or an underscore; a-z, A-Z, 0-9, underscores,
 * dots, colons and dashes; at most 64" (the google-genai reference; older pages allow fewer characters).
 */
export const GEMINI_TOOL_NAMES: ToolNameRules = {
  api: 'Gemini',
  pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
  allowedChar: /^[a-zA-Z0-9_.:-]$/,
  firstChar: /^[a-zA-Z_]$/,
  maxLength: 64,
};

/** A tool as Toolgate addresses it. */
export interface ToolRef {
  serverId: string;
  toolName: string;
}

export interface ToolNameEntry extends ToolRef {
  /** The name the model sees and answers with. */
  name: string;
}

export interface ToolNameMap {
  readonly rules: ToolNameRules;
  /** The model-facing name of a tool, or undefined when the tool was not in the map. */
  nameFor(serverId: string, toolName: string): string | undefined;
  /** The tool behind a name the model used, or undefined when no tool has that name. */
  resolve(modelName: string): ToolRef | undefined;
  /** Every tool and its name, sorted by name. */
  entries(): ToolNameEntry[];
}

/** Joins server and tool: readable, and rare inside either part. */
const SEPARATOR = '__';
/** Hex digits of the hash suffix, lengthened only when two suffixed names still clash. */
const HASH_LENGTHS = [8, 12, 16];

/**
 * Builds the names for a set of tools. A name is `server__tool` with disallowed characters turned
 * into `_`; when that is too long or shared by two tools, it is cut and given a hash suffix taken
 * from the tool's qualified name, so it stays unique and stable.
 */
export function createToolNameMap(rules: ToolNameRules, tools: Iterable<ToolRef>): ToolNameMap {
  const unique = new Map<string, ToolRef>();
  for (const { serverId, toolName } of tools) unique.set(pairKey(serverId, toolName), { serverId, toolName });

  const slots = [...unique.values()].map((ref) => {
    const plain = fitFirstChar(
      `${sanitize(ref.serverId, rules)}${SEPARATOR}${sanitize(ref.toolName, rules)}`,
      rules,
    );
    return { ref, plain, hashLevel: plain.length > rules.maxLength ? 0 : -1 };
  });

  // Every member of a clash changes, not just the later ones: that keeps names independent of order.
  for (;;) {
    const byName = new Map<string, typeof slots>();
    for (const slot of slots) {
      const name = nameOf(slot, rules);
      byName.set(name, [...(byName.get(name) ?? []), slot]);
    }
    const clashes = [...byName.values()].filter((group) => group.length > 1);
    if (clashes.length === 0) break;
    for (const group of clashes)
      for (const slot of group) {
        slot.hashLevel++;
        if (slot.hashLevel >= HASH_LENGTHS.length)
          throw new Error(
            `Cannot make a unique ${rules.api} tool name for "${qualifyToolName(slot.ref.serverId, slot.ref.toolName)}"`,
          );
      }
  }

  const byModelName = new Map<string, ToolRef>();
  const byPair = new Map<string, string>();
  for (const slot of slots) {
    const name = nameOf(slot, rules);
    // A bug here would send a request the API rejects, or resolve a call to the wrong tool.
    if (!rules.pattern.test(name)) throw new Error(`Made an invalid ${rules.api} tool name: ${name}`);
    byModelName.set(name, slot.ref);
    byPair.set(pairKey(slot.ref.serverId, slot.ref.toolName), name);
  }

  return {
    rules,
    nameFor: (serverId, toolName) => byPair.get(pairKey(serverId, toolName)),
    resolve: (modelName) => {
      const ref = byModelName.get(modelName);
      return ref ? { ...ref } : undefined;
    },
    entries: () =>
      [...byModelName.entries()]
        .map(([name, ref]) => ({ name, ...ref }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

function nameOf(slot: { ref: ToolRef; plain: string; hashLevel: number }, rules: ToolNameRules): string {
  if (slot.hashLevel < 0) return slot.plain;
  const digits = HASH_LENGTHS[slot.hashLevel] ?? 16;
  const suffix = `_${hashHex(hashInput(slot.ref)).slice(0, digits)}`;
  return `${slot.plain.slice(0, rules.maxLength - suffix.length)}${suffix}`;
}

function sanitize(text: string, rules: ToolNameRules): string {
  let out = '';
  // for...of walks code points, so one emoji or CJK character becomes one `_`, not two.
  for (const char of text) out += rules.allowedChar.test(char) ? char : '_';
  return out;
}

function fitFirstChar(name: string, rules: ToolNameRules): string {
  const first = name[0];
  return rules.firstChar && (first === undefined || !rules.firstChar.test(first)) ? `_${name}` : name;
}

/** A key no two different pairs share (a `/` inside a server id would make qualified names ambiguous). */
function pairKey(serverId: string, toolName: string): string {
  return JSON.stringify([serverId, toolName]);
}

/** The qualified name, prefixed with the server id's length so that `a/b`+`c` and `a`+`b/c` differ. */
function hashInput(ref: ToolRef): string {
  return `${ref.serverId.length}:${qualifyToolName(ref.serverId, ref.toolName)}`;
}

/**
 * 64 bits as 16 hex digits: two FNV-1a passes with different offsets over the UTF-8 bytes. Not a
 * security measure, only a short stable fingerprint; clashes are detected and lengthened anyway.
 */
function hashHex(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return fnv1a(bytes, 0x811c9dc5) + fnv1a(bytes, 0x01000193 ^ 0x5bd1e995);
}

function fnv1a(bytes: Uint8Array, offset: number): string {
  let hash = offset >>> 0;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
