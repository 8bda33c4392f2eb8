import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ANCHOR_ALGORITHM,
  type AnchoredHead,
  anchorKeyOf,
  anchorText,
  type ChainView,
  checkAnchoredHead,
  describeAnchorReport,
  isAnchoredHead,
  jwkThumbprint,
  signatureProblem,
  signHead,
} from './anchor.js';
import { withAnchorReport } from './anchor-verify.js';
import { GENESIS, sealEvents } from './chain.js';

async function keyPair() {
  const pair = await crypto.subtle.generateKey(ANCHOR_ALGORITHM, false, ['sign', 'verify']);
  return { privateKey: pair.privateKey, ...(await anchorKeyOf(pair.publicKey)) };
}

async function chain(count: number) {
  return sealEvents(
    GENESIS,
    Array.from({ length: count }, (_, i) => ({
      invocationId: `inv-${i}`,
      kind: 'pending' as const,
      at: 1_700_000_000_000 + i,
      body: { toolName: 'echo', arguments: { i } },
    })),
  );
}

function viewOf(events: Awaited<ReturnType<typeof chain>>, checkpoint = GENESIS): ChainView {
  const last = events.at(-1)!;
  return {
    checkpoint,
    head: { seq: last.seq, hash: last.hash },
    hashAt: (seq) => events.find((event) => event.seq === seq)?.hash,
  };
}

describe('anchored heads', () => {
  it('names the key by its RFC 7638 thumbprint, computed here from the members in their fixed order', async () => {
    const { jwk, keyId } = await keyPair();
    const members = `{"crv":"P-256","kty":"EC","x":"${jwk.x}","y":"${jwk.y}"}`;
    expect(keyId).toBe(createHash('sha256').update(members).digest('base64url'));
    expect(await jwkThumbprint(jwk)).toBe(keyId);
    expect(jwk).toMatchObject({ kid: keyId, alg: 'ES256', kty: 'EC', crv: 'P-256' });
    expect(jwk).not.toHaveProperty('d');
  });

  it('keeps the private key non-extractable', async () => {
    const { privateKey } = await keyPair();
    expect(privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', privateKey)).rejects.toThrow();
  });

  it('signs a head as ES256 that node:crypto verifies on its own (r || s over the canonical text)', async () => {
    const { privateKey, jwk, keyId } = await keyPair();
    const head = await signHead(privateKey, keyId, { seq: 7, hash: `sha256:${'a'.repeat(64)}` }, 1234);
    expect(head).toMatchObject({ seq: 7, at: 1234, keyId });
    expect(anchorText(head)).toBe(`{"at":1234,"hash":"sha256:${'a'.repeat(64)}","keyId":"${keyId}","seq":7}`);
    expect(await signatureProblem(head, jwk)).toBeUndefined();
    const publicKey = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! },
      format: 'jwk',
    });
    const valid = nodeVerify(
      'sha256',
      Buffer.from(anchorText(head)),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(head.signature, 'base64url'),
    );
    expect(valid).toBe(true);
  });

  it('rejects a head whose seq, hash or time was changed, or that another key signed', async () => {
    const { privateKey, jwk, keyId } = await keyPair();
    const head = await signHead(privateKey, keyId, { seq: 7, hash: `sha256:${'a'.repeat(64)}` }, 1234);
    for (const forged of [
      { ...head, seq: 8 },
      { ...head, hash: `sha256:${'b'.repeat(64)}` },
      { ...head, at: 1235 },
    ])
      expect(await signatureProblem(forged, jwk)).toContain('does not verify');
    // Another key signs the same head and claims the first key's id: the signature fails.
    const other = await keyPair();
    const impostor = await signHead(other.privateKey, keyId, head, head.at);
    expect(await signatureProblem(impostor, jwk)).toContain('does not verify');
    // Checked with a replaced key: named as such, not as a forgery.
    expect(await signatureProblem(head, other.jwk)).toContain(`signed by key ${keyId}, but the key`);
    expect(await signatureProblem({ ...head, signature: 'not base64!' }, jwk)).toContain('not base64url');
  });

  it('says the chain extends a head only while the event at its seq keeps the signed hash', async () => {
    const { privateKey, jwk, keyId } = await keyPair();
    const events = await chain(10);
    const head = await signHead(privateKey, keyId, { seq: 6, hash: events[5]!.hash }, 1);
    expect(await checkAnchoredHead(head, jwk, viewOf(events), 'given')).toEqual({
      status: 'extends',
      head,
      source: 'given',
    });

    // The whole chain rewritten from event 1, every hash recomputed: it verifies on its own, but
    // event 6 no longer has the signed hash.
    const rewritten = await sealEvents(
      GENESIS,
      events.map(({ invocationId, kind, at }, i) => ({ invocationId, kind, at, body: { i, forged: true } })),
    );
    expect(await checkAnchoredHead(head, jwk, viewOf(rewritten), 'given')).toMatchObject({
      status: 'broken',
      reason: expect.stringContaining('event 6 no longer has the hash that was signed'),
    });

    // Cut after event 4: the head is beyond the chain's end.
    expect(await checkAnchoredHead(head, jwk, viewOf(events.slice(0, 4)), 'log')).toMatchObject({
      status: 'broken',
      reason: expect.stringContaining('the chain ends at event 4, before the anchored event 6'),
    });
  });

  it('checks a head at the checkpoint against it, and calls a pruned one unverifiable', async () => {
    const { privateKey, jwk, keyId } = await keyPair();
    const events = await chain(10);
    const kept = events.slice(6);
    const checkpoint = { seq: 6, hash: events[5]!.hash };
    const atCheckpoint = await signHead(privateKey, keyId, checkpoint, 1);
    expect(await checkAnchoredHead(atCheckpoint, jwk, viewOf(kept, checkpoint), 'log')).toMatchObject({
      status: 'extends',
    });
    const pruned = await signHead(privateKey, keyId, { seq: 3, hash: events[2]!.hash }, 1);
    const report = await checkAnchoredHead(pruned, jwk, viewOf(kept, checkpoint), 'log');
    expect(report).toMatchObject({ status: 'unverifiable', reason: expect.stringContaining('pruned') });
    expect(describeAnchorReport(report)).toContain('cannot be checked');
  });

  it('without a key to check with, a head does not count', async () => {
    const { privateKey, keyId } = await keyPair();
    const events = await chain(3);
    const head = await signHead(privateKey, keyId, { seq: 3, hash: events[2]!.hash }, 1);
    expect(await checkAnchoredHead(head, undefined, viewOf(events), 'given')).toMatchObject({
      status: 'broken',
      reason: expect.stringContaining('no signing key'),
    });
  });

  it('turns a verified chain into a failure when it does not pass through its anchored head', async () => {
    const { privateKey, jwk, keyId } = await keyPair();
    const events = await chain(5);
    const head: AnchoredHead = await signHead(
      privateKey,
      keyId,
      { seq: 5, hash: `sha256:${'c'.repeat(64)}` },
      0,
    );
    const report = await checkAnchoredHead(head, jwk, viewOf(events), 'given');
    const verified = { ok: true as const, count: 5, head: { seq: 5, hash: events[4]!.hash } };
    expect(withAnchorReport(verified, report)).toMatchObject({
      ok: false,
      seq: 5,
      checked: 5,
      reason: expect.stringContaining('does not pass through the anchored head given'),
      anchor: { status: 'broken' },
    });
    expect(withAnchorReport(verified, { status: 'none' })).toEqual({
      ...verified,
      anchor: { status: 'none' },
    });
  });

  it('takes only well-formed heads from outside', () => {
    expect(isAnchoredHead({ seq: 1, hash: 'h', at: 1, keyId: 'k', signature: 's' })).toBe(true);
    for (const bad of [null, 'head', { seq: 0, hash: 'h', at: 1, keyId: 'k', signature: 's' }, { seq: 1 }])
      expect(isAnchoredHead(bad)).toBe(false);
  });
});
