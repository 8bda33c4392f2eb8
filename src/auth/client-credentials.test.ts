/**
 * A host app's own key for private_key_jwt: imported non-extractable from the forms hosts have
 * (PKCS#8 PEM, JWK, CryptoKey), refused with a message that never repeats the key, and used by
 * oauth4webapi to sign the client assertion an authorization server verifies (checked here with
 * the public half, as the conformance scenario auth/client-credentials-jwt does in Chromium).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthorizationServerMetadata } from './authorization-server.js';
import { importSigningKey, preRegisteredFrom, SigningKeyProblem } from './client-credentials.js';
import { authMethodOf, clientAuthentication, type RegisteredClient } from './client-identity.js';

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

async function hostKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(ES256, true, ['sign', 'verify']);
}

async function pemOf(key: CryptoKey): Promise<string> {
  const der = new Uint8Array(await crypto.subtle.exportKey('pkcs8', key));
  const base64 = btoa(String.fromCharCode(...der));
  return `-----BEGIN PRIVATE KEY-----\n${base64.replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`;
}

async function signsFor(privateKey: CryptoKey, publicKey: CryptoKey): Promise<boolean> {
  const data = new TextEncoder().encode('proof');
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, data);
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, signature, data);
}

describe('importSigningKey', () => {
  it('imports a PKCS#8 PEM or a private JWK as a key that signs and cannot be read back', async () => {
    const pair = await hostKeyPair();
    const fromPem = await importSigningKey(await pemOf(pair.privateKey));
    const fromJwk = await importSigningKey({
      ...(await crypto.subtle.exportKey('jwk', pair.privateKey)),
      alg: 'ES256',
      key_ops: ['verify'],
    });
    for (const key of [fromPem, fromJwk]) {
      expect(key.extractable).toBe(false);
      expect(key.type).toBe('private');
      expect(await signsFor(key, pair.publicKey)).toBe(true);
    }
  });

  it('takes the algorithm from the host for keys of other curves', async () => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, [
      'sign',
      'verify',
    ]);
    const key = await importSigningKey(await pemOf(pair.privateKey), 'ES384');
    expect((key.algorithm as EcKeyAlgorithm).namedCurve).toBe('P-384');
    await expect(importSigningKey(await pemOf(pair.privateKey), 'ES256')).rejects.toThrow(SigningKeyProblem);
  });

  it('keeps a CryptoKey as it is, but refuses one that cannot sign', async () => {
    const pair = await hostKeyPair();
    expect(await importSigningKey(pair.privateKey)).toBe(pair.privateKey);
    await expect(importSigningKey(pair.publicKey)).rejects.toThrow(SigningKeyProblem);
    const publicJwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
    await expect(importSigningKey(publicJwk)).rejects.toThrow(/no private part/);
  });

  it('refuses any string that is no PKCS#8 key without repeating it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 12, maxLength: 200 }), async (text) => {
        const error = await importSigningKey(text).then(
          () => undefined,
          (problem: unknown) => problem,
        );
        expect(error).toBeInstanceOf(SigningKeyProblem);
        expect((error as Error).message).not.toContain(text);
      }),
    );
    const broken = `-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----`;
    const error = await importSigningKey(broken).catch((problem: unknown) => problem as Error);
    expect(error).toBeInstanceOf(SigningKeyProblem);
    expect((error as Error).message).not.toContain('c2VjcmV0');
  });
});

describe('private_key_jwt', () => {
  const as = (methods?: string[]): AuthorizationServerMetadata => ({
    issuer: 'https://as.example/tenant',
    token_endpoint: 'https://as.example/tenant/token',
    ...(methods ? { token_endpoint_auth_methods_supported: methods } : {}),
  });

  it('is chosen for a client with a key unless the server lists only secret methods and a secret is at hand', async () => {
    const { privateKey } = await hostKeyPair();
    const withKey = (secret?: string): RegisteredClient => ({
      issuer: 'https://as.example/tenant',
      how: 'pre-registered',
      client: { client_id: 'app' },
      privateKey,
      ...(secret ? { clientSecret: secret } : {}),
    });
    expect(authMethodOf(withKey(), as())).toBe('private_key_jwt');
    expect(authMethodOf(withKey(), as(['private_key_jwt']))).toBe('private_key_jwt');
    expect(authMethodOf(withKey('s'), as(['private_key_jwt', 'client_secret_basic']))).toBe(
      'private_key_jwt',
    );
    expect(authMethodOf(withKey('s'), as(['client_secret_basic']))).toBe('client_secret_basic');
    expect(authMethodOf(withKey(), as(['client_secret_basic']))).toBe('private_key_jwt');
  });

  it('signs an assertion naming the client (iss, sub) for the issuer (aud) that its public key verifies', async () => {
    const pair = await hostKeyPair();
    const entry = await preRegisteredFrom({
      clientId: 'reporting-bot',
      privateKey: await pemOf(pair.privateKey),
      keyId: 'k1',
    });
    const registered: RegisteredClient = {
      issuer: 'https://as.example/tenant',
      how: 'pre-registered',
      client: { client_id: entry.clientId },
      ...(entry.privateKey ? { privateKey: entry.privateKey } : {}),
      ...(entry.keyId ? { keyId: entry.keyId } : {}),
    };
    const body = new URLSearchParams();
    await clientAuthentication(registered, as(['private_key_jwt']))(
      as(),
      registered.client,
      body,
      new Headers(),
    );
    expect(body.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const [header, payload, signature] = (body.get('client_assertion') ?? '').split('.') as [
      string,
      string,
      string,
    ];
    const decode = (part: string) =>
      Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
    expect(JSON.parse(new TextDecoder().decode(decode(header)))).toMatchObject({ alg: 'ES256', kid: 'k1' });
    const claims = JSON.parse(new TextDecoder().decode(decode(payload)));
    expect(claims).toMatchObject({
      iss: 'reporting-bot',
      sub: 'reporting-bot',
      aud: 'https://as.example/tenant',
    });
    expect(claims.exp).toBeGreaterThan(claims.iat);
    const verified = await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      pair.publicKey,
      decode(signature),
      new TextEncoder().encode(`${header}.${payload}`),
    );
    expect(verified).toBe(true);
  });
});
