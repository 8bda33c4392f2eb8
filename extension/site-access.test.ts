import { describe, expect, it } from 'vitest';
import { isSiteOrigin } from './origins.js';
import { createSiteAccess, type SiteGrant } from './site-access.js';

const memoryStore = (initial: SiteGrant[] = []) => {
  const saved: SiteGrant[][] = [];
  return {
    saved,
    store: { load: async () => initial, save: async (grants: SiteGrant[]) => void saved.push(grants) },
  };
};
const ORIGIN = 'https://app.example';
const add = { serverId: 'calc', toolName: 'add' };

describe('site access', () => {
  it('asks once per site, refuses, then grants only the tools the person ticked, and persists the grant', async () => {
    const { store, saved } = memoryStore();
    const access = await createSiteAccess(store);
    const first = access.request(ORIGIN, 'App');
    const second = access.request(ORIGIN, 'App');
    expect(access.consents.value).toHaveLength(1);
    await access.answer(access.consents.value[0]!.id, { allow: false });
    await expect(first).rejects.toMatchObject({ kind: 'not-allowed' });
    await expect(second).rejects.toThrow(/did not allow https:\/\/app\.example/);
    expect(access.grantOf(ORIGIN)).toBeUndefined();

    const third = access.request(ORIGIN, 'App');
    await access.answer(access.consents.value[0]!.id, { allow: true, tools: [add, add] });
    expect((await third).tools).toEqual([add]);
    expect(access.allows(ORIGIN, 'calc', 'add')).toBe(true);
    expect(access.allows(ORIGIN, 'calc', 'wipe')).toBe(false);
    expect(access.allows('https://app.example:8443', 'calc', 'add')).toBe(false);
    expect(saved.at(-1)?.map((grant) => grant.origin)).toEqual([ORIGIN]);
    // Asked again later: answered from the grant, nobody is asked.
    await access.request(ORIGIN, 'App');
    expect(access.consents.value).toEqual([]);
  });

  it('revokes at once and tells listeners; a page that stops waiting withdraws its question', async () => {
    const { store, saved } = memoryStore([{ origin: ORIGIN, tools: [add], grantedAt: 1 }]);
    const access = await createSiteAccess(store);
    const changed: string[] = [];
    access.onChange((origin) => changed.push(origin));
    const revoking = access.revoke(ORIGIN);
    expect(access.allows(ORIGIN, 'calc', 'add')).toBe(false);
    await revoking;
    expect(changed).toEqual([ORIGIN]);
    expect(saved.at(-1)).toEqual([]);

    const abort = new AbortController();
    const waiting = access.request('https://other.example', 'Other', abort.signal);
    expect(access.consents.value).toHaveLength(1);
    abort.abort();
    await expect(waiting).rejects.toThrow(/stopped waiting/);
    expect(access.consents.value).toEqual([]);
    await expect(access.answer('gone', { allow: false })).rejects.toThrow(/no longer waiting/);
  });

  it('serves exact http(s) origins only', async () => {
    expect(isSiteOrigin('https://app.example')).toBe(true);
    expect(isSiteOrigin('http://127.0.0.1:8080')).toBe(true);
    for (const origin of [
      'null',
      '',
      undefined,
      'file://',
      'chrome-extension://abc',
      'https://app.example/path',
    ])
      expect(isSiteOrigin(origin)).toBe(false);
    const access = await createSiteAccess(memoryStore().store);
    await expect(access.request('null', 'x')).rejects.toThrow(/http and https pages only/);
  });
});
