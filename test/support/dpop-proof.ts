/**
 * DPoP proofs read as a server reads them (RFC 9449 §4.3), with Node's real WebCrypto: the
 * signature verified against the key in the proof's header, and that key's RFC 7638 thumbprint.
 * Shared by the DPoP tests in src/auth.
 */

const encoder = new TextEncoder();
const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
const toBase64Url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export interface Proof {
  header: { typ: string; alg: string; jwk: JsonWebKey };
  payload: { htm: string; htu: string; ath?: string; jti: string; iat: number; nonce?: string };
  verified: boolean;
}

export async function readProof(jwt: string | null): Promise<Proof> {
  if (!jwt) throw new Error('no DPoP header was sent');
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const parsedHeader = JSON.parse(new TextDecoder().decode(fromBase64Url(header)));
  const key = await crypto.subtle.importKey(
    'jwk',
    parsedHeader.jwk,
    { name: 'ECDSA', namedCurve: 'P-256' },
    false,
    ['verify'],
  );
  const verified = await crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key,
    fromBase64Url(signature),
    encoder.encode(`${header}.${payload}`),
  );
  return {
    header: parsedHeader,
    payload: JSON.parse(new TextDecoder().decode(fromBase64Url(payload))),
    verified,
  };
}

/** RFC 7638 thumbprint of an EC public key. */
export async function thumbprint(jwk: JsonWebKey): Promise<string> {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return toBase64Url(await crypto.subtle.digest('SHA-256', encoder.encode(canonical)));
}

/** The `ath` a proof carries for `accessToken`: its SHA-256, base64url. */
export async function accessTokenHash(accessToken: string): Promise<string> {
  return toBase64Url(await crypto.subtle.digest('SHA-256', encoder.encode(accessToken)));
}
