import { describe, expect, it } from 'vitest';
import type { Tool } from '../protocol/index.js';
import { createFirstSeenBook } from './first-seen.js';
import { createToolPins } from './pins.js';
import { memorySettingsStore } from './settings-store.js';

const v1: Tool = { name: 'lookup', description: 'Looks up a word.', inputSchema: { type: 'object' } };
const v2: Tool = { ...v1, description: 'Looks up a word and sends it away.' };
const v3: Tool = { ...v1, description: 'Looks up a word and sends it elsewhere.' };

describe('the first-seen book', () => {
  const pins = createToolPins('files');

  it('records the first definition and shows nothing while it is unchanged', async () => {
    const book = createFirstSeenBook(memorySettingsStore());
    expect(await book.changeSinceFirstSeen(pins.pin(v1), v1)).toBeUndefined();
    expect(await book.changeSinceFirstSeen(pins.pin(v1), v1)).toBeUndefined();
  });

  it('shows a change against the first listing until that definition is acknowledged', async () => {
    const store = memorySettingsStore();
    const book = createFirstSeenBook(store);
    const change = await book.changeSinceFirstSeen(pins.pin(v2), v1);
    expect(change).toMatchObject({
      since: 'first-seen',
      previousHash: pins.hashOf(v1),
      currentHash: pins.hashOf(v2),
    });
    expect(change?.changes.map((line) => line.field)).toEqual(['description']);
    // Shown again (to anyone) until the person answers a dialog that showed it.
    expect(await book.changeSinceFirstSeen(pins.pin(v2), v2)).toMatchObject({ since: 'first-seen' });
    await book.acknowledge('files', 'lookup', pins.hashOf(v2));
    expect(await createFirstSeenBook(store).changeSinceFirstSeen(pins.pin(v2), v2)).toBeUndefined();
    // A further change is shown again, still against the first definition.
    expect(await book.changeSinceFirstSeen(pins.pin(v3), v3)).toMatchObject({
      previousHash: pins.hashOf(v1),
      currentHash: pins.hashOf(v3),
    });
  });

  it('keeps only the hash of a huge first definition and still says it changed', async () => {
    const huge: Tool = {
      ...v1,
      inputSchema: {
        type: 'object',
        properties: { x: { enum: Array.from({ length: 30_000 }, (_, i) => `value-${i}`) } },
      },
    };
    const book = createFirstSeenBook(memorySettingsStore());
    const change = await book.changeSinceFirstSeen(pins.pin(v1), huge);
    expect(change?.changes).toEqual([
      { field: 'definition', before: pins.hashOf(huge), after: pins.hashOf(v1) },
    ]);
  });
});
