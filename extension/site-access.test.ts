import { describe, expect, it } from 'vitest';
import { memoryAccessStore } from '../test/support/memory-access-store.js';
import { isInsecureRemoteOrigin, isLoopbackOrigin, isSiteOrigin } from './origins.js';
import {
  describeWait,
  FIRST_WAIT_MS,
  FORGET_AFTER_MS,
  LONGEST_WAIT_MS,
  waitAfter,
} from './refusal-backoff.js';
import { createSiteAccess } from './site-access.js';

const ORIGIN = 'https://app.example';
const add = { serverId: 'calc', toolName: 'add' };

/** A clock the test moves by hand: the refusal wait is measured by it. */
function testClock(start = 1_000_000) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

describe('site access', () => {
  it('asks once per site, refuses, then grants only the tools the person ticked, and persists the grant', async () => {
    const store = memoryAccessStore();
    const clock = testClock();
    const access = await createSiteAccess(store, clock);
    const first = access.request(ORIGIN, 'App');
    const second = access.request(ORIGIN, 'App');
    expect(access.consents.value).toHaveLength(1);
    await access.answer(access.consents.value[0]!.id, { allow: false });
    await expect(first).rejects.toMatchObject({ kind: 'not-allowed' });
    await expect(second).rejects.toThrow(/did not allow https:\/\/app\.example/);
    expect(access.grantOf(ORIGIN)).toBeUndefined();

    clock.advance(FIRST_WAIT_MS);
    const third = access.request(ORIGIN, 'App');
    await access.answer(access.consents.value[0]!.id, { allow: true, tools: [add, add] });
    expect((await third).tools).toEqual([add]);
    expect(access.allows(ORIGIN, 'calc', 'add')).toBe(true);
    expect(access.allows(ORIGIN, 'calc', 'wipe')).toBe(false);
    expect(access.allows('https://app.example:8443', 'calc', 'add')).toBe(false);
    expect(store.savedGrants.at(-1)?.map((grant) => grant.origin)).toEqual([ORIGIN]);
    // A grant clears the refusal record.
    expect(store.savedRefusals.at(-1)).toEqual([]);
    // Asked again later: answered from the grant, nobody is asked.
    await access.request(ORIGIN, 'App');
    expect(access.consents.value).toEqual([]);
  });

  it('a refused site may not ask again for a minute, then two, four, ... at most an hour; the page hears how long', async () => {
    const store = memoryAccessStore();
    const clock = testClock();
    const access = await createSiteAccess(store, clock);
    const refuse = async () => {
      const asked = access.request(ORIGIN, 'App');
      expect(access.consents.value).toHaveLength(1);
      await access.answer(access.consents.value[0]!.id, { allow: false });
      await expect(asked).rejects.toMatchObject({ kind: 'not-allowed' });
    };

    await refuse();
    // At once, and without a dialog: the wait is named.
    await expect(access.request(ORIGIN, 'App')).rejects.toMatchObject({
      kind: 'retry-later',
      retryAfterMs: FIRST_WAIT_MS,
      message: expect.stringContaining('may ask again in 1 minute'),
    });
    expect(access.consents.value).toEqual([]);
    // Another site is not held back by this one's refusal.
    const other = access.request('https://other.example', 'Other');
    expect(access.consents.value.map((consent) => consent.origin)).toEqual(['https://other.example']);
    await access.answer(access.consents.value[0]!.id, { allow: false });
    await expect(other).rejects.toMatchObject({ kind: 'not-allowed' });

    clock.advance(FIRST_WAIT_MS - 1);
    await expect(access.request(ORIGIN, 'App')).rejects.toThrow(/may ask again in 1 second/);
    clock.advance(1);
    await refuse();
    await expect(access.request(ORIGIN, 'App')).rejects.toMatchObject({ retryAfterMs: 2 * FIRST_WAIT_MS });
    clock.advance(2 * FIRST_WAIT_MS);
    await refuse();
    await expect(access.request(ORIGIN, 'App')).rejects.toMatchObject({ retryAfterMs: 4 * FIRST_WAIT_MS });

    // The refusals are saved, so a restarted worker still makes the site wait.
    const restarted = await createSiteAccess(memoryAccessStore([], store.savedRefusals.at(-1)), clock);
    clock.advance(3 * FIRST_WAIT_MS);
    await expect(restarted.request(ORIGIN, 'App')).rejects.toThrow(/may ask again in 1 minute/);
    expect(restarted.consents.value).toEqual([]);

    // The doubling stops at an hour; a day without a refusal starts the count afresh.
    expect([1, 2, 3, 6, 7, 30].map(waitAfter)).toEqual([
      FIRST_WAIT_MS,
      2 * FIRST_WAIT_MS,
      4 * FIRST_WAIT_MS,
      32 * FIRST_WAIT_MS,
      LONGEST_WAIT_MS,
      LONGEST_WAIT_MS,
    ]);
    clock.advance(FORGET_AFTER_MS);
    const later = restarted.request(ORIGIN, 'App');
    await restarted.answer(restarted.consents.value[0]!.id, { allow: false });
    await expect(later).rejects.toMatchObject({ kind: 'not-allowed' });
    await expect(restarted.request(ORIGIN, 'App')).rejects.toMatchObject({ retryAfterMs: FIRST_WAIT_MS });
    expect(describeWait(LONGEST_WAIT_MS)).toBe('1 hour');
    expect(describeWait(90_000)).toBe('2 minutes');
  });

  it('a page that stops waiting is not a refusal: it may ask again at once', async () => {
    const access = await createSiteAccess(memoryAccessStore());
    const abort = new AbortController();
    const waiting = access.request(ORIGIN, 'App', abort.signal);
    abort.abort();
    await expect(waiting).rejects.toThrow(/stopped waiting/);
    access.request(ORIGIN, 'App').catch(() => undefined);
    expect(access.consents.value).toHaveLength(1);
  });

  it('revokes at once and tells listeners; a page that stops waiting withdraws its question', async () => {
    const store = memoryAccessStore([{ origin: ORIGIN, tools: [add], grantedAt: 1 }]);
    const access = await createSiteAccess(store);
    const changed: string[] = [];
    access.onChange((origin) => changed.push(origin));
    const revoking = access.revoke(ORIGIN);
    expect(access.allows(ORIGIN, 'calc', 'add')).toBe(false);
    await revoking;
    expect(changed).toEqual([ORIGIN]);
    expect(store.savedGrants.at(-1)).toEqual([]);

    const abort = new AbortController();
    const waiting = access.request('https://other.example', 'Other', abort.signal);
    expect(access.consents.value).toHaveLength(1);
    abort.abort();
    await expect(waiting).rejects.toThrow(/stopped waiting/);
    expect(access.consents.value).toEqual([]);
    await expect(access.answer('gone', { allow: false })).rejects.toThrow(/no longer waiting/);
  });

  it("lets a site's browser agent use its granted tools only when the person turns it on, and persists it", async () => {
    const store = memoryAccessStore([{ origin: ORIGIN, tools: [add], grantedAt: 1 }]);
    const access = await createSiteAccess(store);
    expect(access.grantOf(ORIGIN)?.agent).toBeUndefined();
    const changed: string[] = [];
    access.onChange((origin) => changed.push(origin));
    await access.setAgent(ORIGIN, true);
    expect(access.grantOf(ORIGIN)).toMatchObject({ agent: true, tools: [add] });
    expect(store.savedGrants.at(-1)).toEqual([{ origin: ORIGIN, tools: [add], grantedAt: 1, agent: true }]);
    await access.setAgent(ORIGIN, false);
    expect(store.savedGrants.at(-1)).toEqual([{ origin: ORIGIN, tools: [add], grantedAt: 1 }]);
    expect(changed).toEqual([ORIGIN, ORIGIN]);
    await expect(access.setAgent('https://other.example', true)).rejects.toMatchObject({
      kind: 'not-allowed',
    });
  });

  it('serves exact http(s) origins only, and knows which travel over a network in the clear', async () => {
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
    const access = await createSiteAccess(memoryAccessStore());
    await expect(access.request('null', 'x')).rejects.toThrow(/http and https pages only/);

    for (const origin of [
      'http://localhost:3000',
      'http://app.localhost',
      'http://127.0.0.1:8080',
      'http://127.9.0.1',
      'http://[::1]:8080',
    ])
      expect([origin, isLoopbackOrigin(origin), isInsecureRemoteOrigin(origin)]).toEqual([
        origin,
        true,
        false,
      ]);
    for (const origin of [
      'http://app.example',
      'http://192.168.1.2',
      'http://localhost.example',
      'http://127.0.0.1.example',
    ])
      expect([origin, isInsecureRemoteOrigin(origin)]).toEqual([origin, true]);
    expect(isInsecureRemoteOrigin('https://app.example')).toBe(false);
  });
});
