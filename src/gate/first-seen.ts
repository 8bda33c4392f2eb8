/**
 * Definitions as Toolgate first saw them, and which changes the person has seen. A remembered
 * approval shows what changed only to the caller it was given to; this book shows a change to
 * everyone: every approval dialog for a tool whose definition differs from the one first seen
 * carries the diff, until the person has answered a dialog that showed it (then that definition,
 * by its hash, is acknowledged).
 *
 * "First seen" is the definition the connection first listed under that name (the catalog keeps
 * it), written to the settings store on the first call that needs it, so it outlives the page.
 * Keys: `seen:<server>\0<tool>` holds the first definition (its pinned fields) and hash;
 * `seen-ack:<server>\0<tool>\0<hash>` says a change to that definition was shown and answered.
 */

import type { JsonObject, Tool } from '../protocol/index.js';
import { describeChange } from './definition-diff.js';
import { definitionOf, hashDefinitionSync } from './pins.js';
import type { SettingsStore } from './settings-store.js';
import type { DefinitionChange, PinnedTool } from './types.js';

const SEEN_PREFIX = 'seen:';
const SEEN_ACK_PREFIX = 'seen-ack:';

/**
 * A first definition larger than this is kept as its hash only: the settings store holds small
 * records, and a diff against a megabyte schema is not something a person reads.
 */
const MAX_STORED_DEFINITION_CHARS = 256 * 1024;

interface SeenRecord {
  definitionHash: string;
  /** The pinned fields, absent when the definition was too large to keep. */
  definition?: JsonObject;
  at: number;
}

/** The first-seen definitions of every server, and the changes acknowledged. */
interface FirstSeenBook {
  /**
   * What changed since `firstListed` (or the definition already on record) was first seen, unless it
   * is the same definition or the person has acknowledged this one; records the first definition
   * when there is none yet.
   */
  changeSinceFirstSeen(pinned: PinnedTool, firstListed: Tool): Promise<DefinitionChange | undefined>;
  /** The person answered a dialog that showed this definition's change: stop showing it. */
  acknowledge(serverId: string, toolName: string, definitionHash: string): Promise<void>;
}

const seenKey = (serverId: string, toolName: string) => `${SEEN_PREFIX}${serverId}\u0000${toolName}`;
const ackKey = (serverId: string, toolName: string, hash: string) =>
  `${SEEN_ACK_PREFIX}${serverId}\u0000${toolName}\u0000${hash}`;

function readRecord(value: unknown): SeenRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Partial<SeenRecord>;
  if (typeof record.definitionHash !== 'string') return undefined;
  const definition =
    typeof record.definition === 'object' && record.definition !== null && !Array.isArray(record.definition)
      ? record.definition
      : undefined;
  return {
    definitionHash: record.definitionHash,
    ...(definition ? { definition } : {}),
    at: typeof record.at === 'number' ? record.at : 0,
  };
}

export function createFirstSeenBook(store: SettingsStore, now: () => number = Date.now): FirstSeenBook {
  return {
    async changeSinceFirstSeen(pinned, firstListed) {
      const { serverId } = pinned;
      const toolName = pinned.tool.name;
      let record = readRecord(await store.get(seenKey(serverId, toolName)));
      if (!record) {
        const definition = definitionOf(firstListed);
        const definitionHash =
          firstListed === pinned.tool ? pinned.definitionHash : hashDefinitionSync(firstListed);
        const small = JSON.stringify(definition).length <= MAX_STORED_DEFINITION_CHARS;
        record = { definitionHash, ...(small ? { definition } : {}), at: now() };
        await store.set(seenKey(serverId, toolName), record);
      }
      if (record.definitionHash === pinned.definitionHash) return undefined;
      if ((await store.get(ackKey(serverId, toolName, pinned.definitionHash))) !== undefined)
        return undefined;
      if (!record.definition)
        return {
          previousHash: record.definitionHash,
          currentHash: pinned.definitionHash,
          since: 'first-seen',
          changes: [{ field: 'definition', before: record.definitionHash, after: pinned.definitionHash }],
        };
      const first = {
        serverId,
        tool: record.definition as unknown as Tool,
        definitionHash: record.definitionHash,
      };
      return { ...describeChange(first, pinned), since: 'first-seen' };
    },
    async acknowledge(serverId, toolName, definitionHash) {
      await store.set(ackKey(serverId, toolName, definitionHash), { at: now() });
    },
  };
}
