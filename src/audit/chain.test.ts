import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChainEvent, GENESIS, sealEvents, verifyChain } from './chain.js';
import { exportChunks, exportLines, parseExport } from './export-format.js';

async function sampleChain(count = 6): Promise<ChainEvent[]> {
  const events = [];
  for (let i = 0; i < count; i++)
    events.push({
      invocationId: `inv-${Math.floor(i / 2)}`,
      kind: i % 2 === 0 ? ('pending' as const) : ('final' as const),
      at: 1_700_000_000_000 + i,
      body: { toolName: 'echo', arguments: { message: `hi ${i}`, nested: { z: 1, a: [1, 2] } } },
    });
  return sealEvents(GENESIS, events);
}

describe('the hash chain', () => {
  it('verifies an untouched chain and reports its head', async () => {
    const events = await sampleChain();
    expect(await verifyChain(events)).toEqual({
      ok: true,
      count: 6,
      head: { seq: 6, hash: events[5]!.hash },
    });
    expect(events[0]!.prevHash).toBe(GENESIS.hash);
    expect(events[1]!.prevHash).toBe(events[0]!.hash);
  });

  it('finds an edited event at exactly its position', async () => {
    const events = await sampleChain();
    (events[3]!.body.arguments as { message: string }).message = 'edited';
    expect(await verifyChain(events)).toMatchObject({
      ok: false,
      seq: 4,
      invocationId: 'inv-1',
      reason: expect.stringContaining('changed'),
    });
  });

  it('finds a removed or reordered event', async () => {
    const removed = await sampleChain();
    removed.splice(2, 1);
    expect(await verifyChain(removed)).toMatchObject({
      ok: false,
      seq: 4,
      reason: expect.stringContaining('missing or reordered'),
    });
    const swapped = await sampleChain();
    [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
    expect(await verifyChain(swapped)).toMatchObject({ ok: false, seq: 3 });
  });

  it('finds an event re-hashed after an edit by its broken link', async () => {
    const events = await sampleChain();
    // An attacker who edits event 2 and recomputes its hash still breaks event 3's link.
    const resealed = await sealEvents({ seq: 1, hash: events[0]!.hash }, [
      { ...events[1]!, body: { forged: true } },
    ]);
    events[1] = resealed[0]!;
    expect(await verifyChain(events)).toMatchObject({
      ok: false,
      seq: 3,
      reason: expect.stringContaining('link'),
    });
  });

  it('verifies from a checkpoint after pruning', async () => {
    const events = await sampleChain();
    const kept = events.slice(4);
    expect(await verifyChain(kept)).toMatchObject({ ok: false, seq: 5 });
    expect(await verifyChain(kept, { seq: 4, hash: events[3]!.hash })).toMatchObject({ ok: true, count: 2 });
  });
});

describe('exports', () => {
  const runScript = (text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'toolgate-audit-')), 'log.ndjson');
    writeFileSync(file, text);
    try {
      return {
        code: 0,
        out: execFileSync(process.execPath, ['scripts/verify-audit-export.mjs', file], { encoding: 'utf8' }),
      };
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      return { code: failed.status, out: failed.stdout };
    }
  };

  it('round-trips, and the standalone script agrees with the library', async () => {
    const events = await sampleChain();
    const text = [...exportLines(GENESIS, events)].join('');
    const parsed = parseExport(text);
    expect('events' in parsed && parsed.events).toEqual(events);
    if (!('events' in parsed)) return;
    expect(await verifyChain(parsed.events, parsed.header.anchor)).toMatchObject({ ok: true, count: 6 });
    const result = runScript(text);
    expect(result.code).toBe(0);
    expect(result.out).toBe(`ok: 6 events, head 6 ${events[5]!.hash}\n`);
  });

  it('the script names the first broken event in a tampered file', async () => {
    const events = await sampleChain();
    (events[2]!.body as { toolName: string }).toolName = 'rm_rf';
    const result = runScript([...exportLines(GENESIS, events)].join(''));
    expect(result.code).toBe(1);
    expect(result.out).toContain('broken at line 4: event 3 (invocation inv-1)');
  });

  it('the JSON form streams, parses back and verifies with the script, tampering included', async () => {
    const events = await sampleChain();
    let text = '';
    for await (const chunk of exportChunks(GENESIS, events, 'json', new Date(0))) text += chunk;
    expect(JSON.parse(text)).toMatchObject({ format: 'toolgate-audit-export', events: expect.any(Array) });
    const parsed = parseExport(text);
    expect('events' in parsed && parsed.events).toEqual(events);
    expect(runScript(text)).toEqual({ code: 0, out: `ok: 6 events, head 6 ${events[5]!.hash}\n` });
    const tampered = text.replace('hi 4', 'hi 9');
    expect(runScript(tampered).code).toBe(1);
    expect(runScript(tampered).out).toContain('event 5 (invocation inv-2): its content does not match');
  });

  it('refuses files that are not exports', () => {
    expect(parseExport('')).toEqual({ error: 'the file is empty' });
    expect(parseExport('{"format":"other"}\n')).toMatchObject({
      error: expect.stringContaining('not a Toolgate'),
    });
    expect(runScript('hello\n').code).toBe(1);
  });
});
