/**
 * What anchoring costs, in Chromium on disk (bench/audit-anchor.mjs), each figure against its
 * baseline in the same page and run:
 * - anchor(): reading the head, the ES256 signature and keeping the head, against one bare
 *   WebCrypto ES256 signature of the same text;
 * - appends with automatic anchoring on (the defaults, every 1,000 events) against the same log
 *   code with it off, alternating rounds of bursts of 1,000 pending records;
 * - the pending write the gate waits for, anchoring on against off, one call at a time.
 */
import { type AuditLog, createAuditLog } from '../../src/audit/log.js';
import { filler, median, pendingRecord, uniqueInvocationId } from './audit-records.js';

const BURST = 1000;
const ARGUMENT_TEXT = filler(960);

const record = (i: number, at: number) =>
  pendingRecord(i, at, { invocationId: uniqueInvocationId(i), tools: 100, text: ARGUMENT_TEXT });

async function signing(log: AuditLog, runs: number) {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  const text = new TextEncoder().encode(
    JSON.stringify({ at: Date.now(), hash: `sha256:${'0'.repeat(64)}`, keyId: 'x'.repeat(43), seq: 1 }),
  );
  await log.pending(record(0, Date.now()));
  await log.anchor(); // the key is created here, once
  const anchorTimes: number[] = [];
  const signTimes: number[] = [];
  for (let i = 1; i <= runs; i++) {
    await log.pending(record(i, Date.now())); // a new head each time: nothing answered from the kept one
    let start = performance.now();
    await log.anchor();
    anchorTimes.push(performance.now() - start);
    start = performance.now();
    await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, text);
    signTimes.push(performance.now() - start);
  }
  return { anchorMs: median(anchorTimes), signMs: median(signTimes) };
}

async function appends(on: AuditLog, off: AuditLog, total: number, rounds: number) {
  const elapsed = { on: 0, off: 0 };
  const perRound = Math.ceil(total / rounds);
  const round = async (log: AuditLog, which: 'on' | 'off', from: number) => {
    const start = performance.now();
    for (let i = from; i < from + perRound; i += BURST) {
      const burst: Promise<void>[] = [];
      for (let j = i; j < Math.min(i + BURST, from + perRound); j++)
        burst.push(log.pending(record(j, Date.now())));
      await Promise.all(burst);
    }
    await log.settled();
    elapsed[which] += performance.now() - start;
  };
  for (let r = 0; r < rounds; r++) {
    const order: ['on' | 'off', AuditLog][] =
      r % 2 === 0
        ? [
            ['on', on],
            ['off', off],
          ]
        : [
            ['off', off],
            ['on', on],
          ];
    for (const [which, log] of order) await round(log, which, r * perRound);
  }
  // Heads signed in the background during the "on" rounds: let the last one land before counting.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    onPerSecond: (rounds * perRound) / (elapsed.on / 1000),
    offPerSecond: (rounds * perRound) / (elapsed.off / 1000),
    headsSigned: (await on.anchors()).length,
  };
}

async function pendingWrites(on: AuditLog, off: AuditLog, runs: number) {
  const times = { on: [] as number[], off: [] as number[] };
  for (let i = 0; i < runs; i++)
    for (const [which, log] of [
      ['on', on],
      ['off', off],
    ] as const) {
      const value = record(1_000_000 + i, Date.now());
      const start = performance.now();
      await log.pending(value);
      times[which].push(performance.now() - start);
    }
  return { onMs: median(times.on), offMs: median(times.off) };
}

Object.assign(window, {
  /** `same`: both logs without anchoring (an A/A run: how far two identical logs differ). */
  runAnchorBench: async (total: number, rounds: number, same = false) => {
    const on = await createAuditLog({
      name: 'bench-anchoring-on',
      retention: false,
      ...(same ? { anchoring: false } : {}),
    });
    const off = await createAuditLog({ name: 'bench-anchoring-off', retention: false, anchoring: false });
    const explicit = await createAuditLog({
      name: 'bench-anchor-explicit',
      retention: false,
      anchoring: false,
    });
    const result = {
      sign: await signing(explicit, 200),
      append: await appends(on, off, total, rounds),
      pending: await pendingWrites(on, off, 200),
    };
    for (const log of [on, off, explicit]) log.close();
    return result;
  },
});
document.body.dataset.ready = 'yes';
