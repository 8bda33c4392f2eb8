/**
 * The Skills extension's requests, on one connection: `skills/list` (every page, bounded),
 * `skills/get`, `resources/read` of one file, and `resources/directory/read` only when the server
 * declared `directoryRead: true` (the spec forbids it otherwise). Nothing here reads a file on its
 * own: each read is one the skill-loading path asked for.
 */

import type { McpClient } from '../client/index.js';
import {
  CapabilityMissingError,
  GuardError,
  InvalidResponseError,
  isJsonObject,
  type JsonObject,
  SKILLS_EXTENSION_ID,
} from '../protocol/index.js';
import { isHeldEntry, type ReadEntry, type RejectedEntry, readSkillEntry } from './entry.js';

/** Listing stops here (with `complete: false`): a listing may be arbitrarily large. */
const MAX_LIST_PAGES = 100;
const MAX_DIRECTORY_PAGES = 50;

/** What the server declared for the extension, or undefined when it did not declare it. */
export function skillsCapability(
  client: Pick<McpClient, 'capabilities'>,
): { directoryRead: boolean } | undefined {
  const extensions = client.capabilities.extensions;
  const declared = isJsonObject(extensions) ? extensions[SKILLS_EXTENSION_ID] : undefined;
  if (!isJsonObject(declared)) return undefined;
  return { directoryRead: declared.directoryRead === true };
}

/** One listing, all pages: held entries, rejected ones with reasons, and whether it is complete. */
interface SkillListing {
  held: ReadEntry[];
  rejected: RejectedEntry[];
  /** False when paging stopped at the bound or on a repeated cursor. */
  complete: boolean;
}

export async function listSkills(client: McpClient, signal?: AbortSignal): Promise<SkillListing> {
  requireSkills(client, 'skills/list');
  const held: ReadEntry[] = [];
  const rejected: RejectedEntry[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await client.request('skills/list', cursor ? { cursor } : {}, signal ? { signal } : {});
    if (!Array.isArray(result.skills))
      throw new InvalidResponseError(client.serverId, 'skills/list', 'the result has no skills array');
    for (const value of result.skills) {
      const read = readSkillEntry(value);
      if (isHeldEntry(read)) held.push(read);
      else rejected.push(read);
    }
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') return { held, rejected, complete: true };
    if (cursors.has(next)) return { held, rejected, complete: false };
    cursors.add(next);
    cursor = next;
  }
  return { held, rejected, complete: false };
}

/** `skills/get` for one SKILL.md URI: the current entry (or why it cannot be held). */
export async function getSkill(
  client: McpClient,
  uri: string,
  signal?: AbortSignal,
): Promise<ReadEntry | RejectedEntry> {
  requireSkills(client, 'skills/get');
  const result = await client.request('skills/get', { uri }, signal ? { signal } : {});
  return readSkillEntry(result.skill);
}

/** `resources/read` of one URI, the raw result (verification is the caller's). */
export async function readResource(
  client: McpClient,
  uri: string,
  signal?: AbortSignal,
): Promise<JsonObject> {
  return client.request('resources/read', { uri }, signal ? { signal } : {});
}

/** A directory's direct children as the server sees them now (`resources/directory/read`). */
export interface DirectoryChild {
  uri: string;
  name?: string;
  mimeType?: string;
}

export async function readDirectory(
  client: McpClient,
  uri: string,
  signal?: AbortSignal,
): Promise<DirectoryChild[]> {
  const declared = skillsCapability(client);
  if (!declared?.directoryRead)
    throw new CapabilityMissingError(
      client.serverId,
      `${SKILLS_EXTENSION_ID} directoryRead`,
      'resources/directory/read',
    );
  const children: DirectoryChild[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_DIRECTORY_PAGES; page++) {
    const result = await client.request(
      'resources/directory/read',
      cursor ? { uri, cursor } : { uri },
      signal ? { signal } : {},
    );
    if (!Array.isArray(result.resources))
      throw new InvalidResponseError(
        client.serverId,
        'resources/directory/read',
        'the result has no resources array',
      );
    for (const item of result.resources)
      if (isJsonObject(item) && typeof item.uri === 'string')
        children.push({
          uri: item.uri,
          ...(typeof item.name === 'string' ? { name: item.name } : {}),
          ...(typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {}),
        });
    const next = result.nextCursor;
    if (typeof next !== 'string' || next === '') return children;
    if (cursors.has(next)) break;
    cursors.add(next);
    cursor = next;
  }
  throw new GuardError(
    `${client.serverId}: reading ${uri} took more than ${MAX_DIRECTORY_PAGES} pages; Toolgate stopped`,
  );
}

/** The spec: clients issue skills/list and skills/get only after observing the declaration. */
function requireSkills(client: McpClient, method: string): void {
  if (!skillsCapability(client))
    throw new CapabilityMissingError(client.serverId, SKILLS_EXTENSION_ID, method);
}
