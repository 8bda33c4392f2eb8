/**
 * Signed heads in exports: the library's import and the standalone offline verifier
 * (scripts/verify-audit-export.mjs) agree on good files, forged signatures, cut chains, rewritten
 * chains and replaced keys, with and without a key or head kept elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANCHOR_ALGORITHM, type AnchoredHead, anchorKeyOf, signHead } from './anchor.js';
import { type ChainEvent, GENESIS, sealEvents } from './chain.js';
import { type ExportAnchoring, exportChunks, exportLines } from './export-format.js';
import { readAuditExport } from './import.js';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-anchor-'));
let files = 0;
function write(content: string): string {
  const file = join(dir, `f${files++}`);
  writeFileSync(file, content);
  return file;
}

function runScript(text: string, ...extra: string[]): { code: number; out: string } {
  try {
    return {
      code: 0,
      out: execFileSync(process.execPath, ['scripts/verify-audit-export.mjs', write(text), ...extra], {
        encoding: 'utf8',
      }),
    };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { code: failed.status, out: failed.stdout };
  }
}

async function signer() {
  const pair = await crypto.subtle.generateKey(ANCHOR_ALGORITHM, false, ['sign', 'verify']);
  const key = await anchorKeyOf(pair.publicKey);
  return { key, sign: (event: ChainEvent, at = 1) => signHead(pair.privateKey, key.keyId, event, at) };
}

/** Pending records as the gate writes them (the import folds them into entries). */
function drafts(count: number, tag = 'real') {
  return Array.from({ length: count }, (_, i) => ({
    invocationId: `inv-${i}`,
    kind: 'pending' as const,
    at: 1_700_000_000_000 + i,
    body: {
      invocationId: `inv-${i}`,
      serverId: 'files',
      toolName: 'echo',
      caller: { kind: 'host' },
      timestamps: { requested: 1_700_000_000_000 + i },
      arguments: { i, tag },
    },
  }));
}

const ndjson = (events: ChainEvent[], anchoring?: ExportAnchoring) =>
  [...exportLines(GENESIS, events, new Date(0), anchoring)].join('');

/** The library's import refuses `text` saying `importSays`, and the script exits 1 saying `scriptSays`. */
async function expectBothRefuse(text: string, importSays: string, scriptSays: string): Promise<void> {
  expect((await readAuditExport(text)).verification).toMatchObject({
    ok: false,
    reason: expect.stringContaining(importSays),
  });
  expect(runScript(text)).toMatchObject({ code: 1, out: expect.stringContaining(scriptSays) });
}

describe('exports with signed heads', () => {
  it('verify in both, the script saying what it checked; files without heads read as before', async () => {
    const { key, sign } = await signer();
    const events = await sealEvents(GENESIS, drafts(8));
    const heads = [await sign(events[3]!), await sign(events[7]!)];
    const text = ndjson(events, { key, heads });
    const imported = await readAuditExport(text);
    expect(imported.verification).toMatchObject({ ok: true, count: 8 });
    expect(imported.anchors.map((report) => report.status)).toEqual(['extends', 'extends']);
    expect(imported.header.anchorKey?.keyId).toBe(key.keyId);
    expect(runScript(text)).toEqual({
      code: 0,
      out:
        `ok: 8 events, head 8 ${events[7]!.hash}\n` +
        `anchored: 2 heads checked (0 given), the chain passes through each; newest event 8, key ${key.keyId}\n`,
    });
    // The JSON form carries them the same way.
    let json = '';
    for await (const chunk of exportChunks(GENESIS, events, 'json', new Date(0), { key, heads }))
      json += chunk;
    expect((await readAuditExport(json)).verification).toMatchObject({ ok: true });
    expect(runScript(json).code).toBe(0);
    // No key, no heads: exactly the old output.
    expect(runScript(ndjson(events)).out).toBe(`ok: 8 events, head 8 ${events[7]!.hash}\n`);
    expect((await readAuditExport(ndjson(events))).anchors).toEqual([]);
  });

  it('a forged signature fails both', async () => {
    const { key, sign } = await signer();
    const events = await sealEvents(GENESIS, drafts(5));
    const head = await sign(events[4]!);
    const flipped = head.signature.startsWith('A')
      ? `B${head.signature.slice(1)}`
      : `A${head.signature.slice(1)}`;
    const forged = ndjson(events, { key, heads: [{ ...head, signature: flipped }] });
    expect((await readAuditExport(forged)).verification).toMatchObject({
      ok: false,
      seq: 5,
      reason: expect.stringContaining('signature does not verify'),
    });
    const result = runScript(forged);
    expect(result.code).toBe(1);
    expect(result.out).toContain('anchored head at event 5 (the export): its signature does not verify');
  });

  it('a chain cut after a signed head, or rewritten under it, fails both', async () => {
    const { key, sign } = await signer();
    const events = await sealEvents(GENESIS, drafts(6));
    const heads = [await sign(events[5]!)];
    await expectBothRefuse(
      ndjson(events.slice(0, 4), { key, heads }),
      'the chain ends at event 4, before the anchored event 6',
      'the export ends at event 4',
    );

    const rewritten = await sealEvents(GENESIS, drafts(6, 'forged'));
    await expectBothRefuse(
      ndjson(rewritten, { key, heads }),
      'no longer has the hash that was signed',
      'event 6 no longer has the hash that was signed',
    );
  });

  it('with the key and a head kept elsewhere, a rewritten log re-signed with a new key is caught', async () => {
    const original = await signer();
    const events = await sealEvents(GENESIS, drafts(6));
    const shipped: AnchoredHead = await original.sign(events[2]!);
    const trustedKey = write(JSON.stringify(original.key.jwk));
    const shippedFile = write(`${JSON.stringify(shipped)}\n`);
    const honest = ndjson(events, { key: original.key, heads: [await original.sign(events[5]!)] });
    expect(runScript(honest, '--key', trustedKey, '--anchor', shippedFile)).toMatchObject({
      code: 0,
      out: expect.stringContaining('anchored: 2 heads checked (1 given)'),
    });

    // Script on the origin rewrote every event, made a key of its own and signed its new head.
    const attacker = await signer();
    const rewritten = await sealEvents(GENESIS, drafts(6, 'forged'));
    const forged = ndjson(rewritten, { key: attacker.key, heads: [await attacker.sign(rewritten[5]!)] });
    expect(runScript(forged).code).toBe(0);
    expect(runScript(forged, '--key', trustedKey)).toMatchObject({
      code: 1,
      out: expect.stringContaining(`not the trusted key ${original.key.keyId}`),
    });
    expect(runScript(forged, '--anchor', shippedFile)).toMatchObject({
      code: 1,
      out: expect.stringContaining(`signed by key ${original.key.keyId}, which is not the export's key`),
    });
    // Even kept with the old key, the head the host shipped is no longer in the chain.
    const rekeyed = ndjson(rewritten, { key: original.key, heads: [] });
    expect(runScript(rekeyed, '--anchor', shippedFile)).toMatchObject({
      code: 1,
      out: expect.stringContaining('event 3 no longer has the hash that was signed'),
    });
  });
});
