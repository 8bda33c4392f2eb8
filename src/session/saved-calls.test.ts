import { describe, expect, it } from 'vitest';
import { memorySettingsStore } from '../gate/index.js';
import { savedCalls } from './saved-calls.js';

describe('saved calls', () => {
  it('keep arguments redacted, list by name, skip what is not a saved call, and delete', async () => {
    const store = memorySettingsStore();
    const calls = savedCalls(store);
    const kept = await calls.save({
      name: ' Weekly report ',
      serverId: 'https://mcp.example/mcp',
      toolName: 'report',
      arguments: { week: 12, api_key: 'sk-live-abcdefghijklmnop' },
    });
    await calls.save({ name: '', serverId: 's', toolName: 'echo', arguments: {} });
    await store.set('call:broken', { name: 3 });
    const listed = await calls.list();
    expect(listed.map((call) => call.name)).toEqual(['echo', 'Weekly report']);
    expect(listed[1]).toEqual(kept);
    expect(kept.arguments).toEqual({ week: 12, api_key: '[redacted: named like a secret]' });
    await calls.remove(kept.id);
    expect((await calls.list()).map((call) => call.name)).toEqual(['echo']);
  });
});
