import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentOf, decodeBase64, SkillVerificationError, sha256Digest, verifyFile } from './verify.js';

const listedFor = (bytes: Uint8Array) => ({
  uri: 'skill://s/file',
  digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
  size: bytes.byteLength,
});

async function reasonOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    if (error instanceof SkillVerificationError) return error.reason;
    throw error;
  }
}

describe('verification on read', () => {
  it('accepts exactly the listed bytes; any other length fails on size, same length on digest', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        async (listedBytes, served) => {
          const listed = listedFor(listedBytes);
          const reason = await reasonOf(verifyFile('srv', listed, served));
          const same = Buffer.from(listedBytes).equals(Buffer.from(served));
          if (same) expect(reason).toBeUndefined();
          else expect(reason).toBe(served.byteLength === listedBytes.byteLength ? 'digest' : 'size');
        },
      ),
    );
  });

  it('catches one flipped bit anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.nat(7),
        async (bytes, at, bit) => {
          const tampered = bytes.slice();
          tampered[at % bytes.length]! ^= 1 << bit;
          expect(await reasonOf(verifyFile('srv', listedFor(bytes), tampered))).toBe('digest');
        },
      ),
    );
  });

  it('hashes like node:crypto', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        expect(await sha256Digest(bytes)).toBe(listedFor(bytes).digest);
      }),
    );
  });

  it('reads text as UTF-8 bytes and blobs as base64, one content for the URI only', () => {
    const uri = 'skill://s/file';
    expect([...contentOf({ contents: [{ uri, text: 'é' }] }, 'srv', uri).bytes]).toEqual([0xc3, 0xa9]);
    expect([...contentOf({ contents: [{ uri, blob: 'AAEC' }] }, 'srv', uri).bytes]).toEqual([0, 1, 2]);
    for (const contents of [
      [],
      [{ uri: 'skill://s/other', text: 'x' }],
      [
        { uri, text: 'a' },
        { uri, text: 'b' },
      ],
      [{ uri, blob: '%%' }],
      [{ uri, text: 'a', blob: 'AA==' }],
    ])
      expect(() => contentOf({ contents }, 'srv', uri)).toThrow(SkillVerificationError);
  });

  it('decodes base64 like Buffer, and refuses what is not base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect([...(decodeBase64(Buffer.from(bytes).toString('base64')) ?? [-1])]).toEqual([...bytes]);
      }),
    );
    for (const bad of ['A', 'AA=A', 'A B=', 'AAA*']) expect(decodeBase64(bad)).toBeUndefined();
  });
});
