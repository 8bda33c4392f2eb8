/**
 * Client credentials for host apps that act as themselves (the MCP OAuth Client Credentials
 * extension, io.modelcontextprotocol/oauth-client-credentials): no person, no popup; the client
 * proves who it is to the authorization server with a signed JWT (private_key_jwt, RFC 7523 §2.2,
 * recommended) or a secret (client_secret_basic), and gets a token for the MCP server's resource.
 * With `assertion`, the grant is a JWT bearer one (RFC 7523 §2.1) instead: a workload identity
 * token, or an enterprise identity provider's ID-JAG (idJagAssertion, the Enterprise-Managed
 * Authorization extension).
 *
 * Secrets and keys come from the host's own configuration, never from the widget's code. A key
 * given as a JWK or PEM is imported non-extractable: once imported, no script can read it back.
 */

import * as oauth from 'oauth4webapi';
import { problemOf, requestOptions } from './authorization-server.js';
import type { PreRegisteredClient, TokenEndpointAuthMethod } from './client-identity.js';
import { boundedCopy } from './json-body.js';

/** The JWS algorithms a host key may sign client assertions with. */
export type SigningAlgorithm =
  | 'ES256'
  | 'ES384'
  | 'ES512'
  | 'RS256'
  | 'RS384'
  | 'RS512'
  | 'PS256'
  | 'PS384'
  | 'PS512'
  | 'EdDSA';

/** What an assertion provider is told about the token it is for. */
export interface AssertionRequest {
  /** The authorization server's issuer (the audience of the assertion). */
  issuer: string;
  /** The MCP server's resource indicator (RFC 8707). */
  resource: string;
  /** The scopes the token is asked for. */
  scopes: string[];
  /** The fetch to use for any request the provider makes. */
  fetch: typeof fetch;
}

/** How a host app signs in to a server as itself. */
export interface ClientCredentials {
  /** The client id the authorization server registered for the host app. */
  clientId: string;
  /** The issuer these credentials belong to; omitted, they are offered to whichever the server names. */
  issuer?: string;
  /** For client_secret_basic (or client_secret_post, if the server lists only that). */
  clientSecret?: string;
  /**
   * For private_key_jwt: a CryptoKey (non-extractable serves), a private JWK, or a PKCS#8 PEM
   * ("-----BEGIN PRIVATE KEY-----").
   */
  privateKey?: CryptoKey | JsonWebKey | string;
  /** The key's algorithm, for a JWK without `alg` or a PEM. Default ES256. */
  signingAlgorithm?: SigningAlgorithm;
  /** The key's `kid`, when the authorization server needs it. */
  keyId?: string;
  /** Force a token endpoint method instead of choosing from the server's metadata. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** Scopes to ask for; default: the server's challenge, else its resource metadata's, else none. */
  scopes?: string[];
  /**
   * A JWT bearer grant instead of client_credentials: resolves with the assertion for each token
   * request (a workload identity token; idJagAssertion for enterprise-managed authorization).
   */
  assertion?: (request: AssertionRequest) => Promise<string>;
}

/** The credentials as a pre-registered client of the OAuth layer, the key imported. */
export async function preRegisteredFrom(credentials: ClientCredentials): Promise<PreRegisteredClient> {
  const { privateKey } = credentials;
  return {
    clientId: credentials.clientId,
    ...(credentials.issuer ? { issuer: credentials.issuer } : {}),
    ...(credentials.clientSecret ? { clientSecret: credentials.clientSecret } : {}),
    ...(privateKey ? { privateKey: await importSigningKey(privateKey, credentials.signingAlgorithm) } : {}),
    ...(credentials.keyId ? { keyId: credentials.keyId } : {}),
    ...(credentials.tokenEndpointAuthMethod
      ? { tokenEndpointAuthMethod: credentials.tokenEndpointAuthMethod }
      : {}),
  };
}

type ImportParams = RsaHashedImportParams | EcKeyImportParams | Algorithm;

const IMPORT_PARAMS: Record<SigningAlgorithm, ImportParams> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  ES384: { name: 'ECDSA', namedCurve: 'P-384' },
  ES512: { name: 'ECDSA', namedCurve: 'P-521' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  RS384: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' },
  RS512: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
  PS384: { name: 'RSA-PSS', hash: 'SHA-384' },
  PS512: { name: 'RSA-PSS', hash: 'SHA-512' },
  EdDSA: { name: 'Ed25519' },
};

/** Thrown for a key the host gave that cannot sign (wrong format, algorithm or kind). */
export class SigningKeyProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyProblem';
  }
}

/**
 * A host's private key as a non-extractable signing CryptoKey. The error says what is wrong with
 * the key's form, never any of its content.
 */
export async function importSigningKey(
  key: CryptoKey | JsonWebKey | string,
  algorithm?: SigningAlgorithm,
): Promise<CryptoKey> {
  if (typeof CryptoKey !== 'undefined' && key instanceof CryptoKey) {
    if (key.type !== 'private' || !key.usages.includes('sign'))
      throw new SigningKeyProblem('the client key must be a private key that may sign');
    return key;
  }
  if (typeof key === 'string') {
    const alg = algorithm ?? 'ES256';
    const der = pemBody(key);
    try {
      return await crypto.subtle.importKey('pkcs8', der, IMPORT_PARAMS[alg], false, ['sign']);
    } catch {
      // WebCrypto's message names no key: ours says which one and what it must be.
      throw new SigningKeyProblem(`the client key is not a PKCS#8 ${alg} private key`);
    }
  }
  const jwk = key as JsonWebKey;
  const alg: SigningAlgorithm = algorithm ?? (isSigningAlgorithm(jwk.alg) ? jwk.alg : 'ES256');
  if (typeof jwk.d !== 'string') throw new SigningKeyProblem('the client JWK has no private part ("d")');
  try {
    // A JWK's own `alg`/`key_ops` may disagree with our use; the algorithm is chosen here.
    const { alg: _alg, key_ops: _ops, ext: _ext, ...material } = jwk;
    return await crypto.subtle.importKey('jwk', material, IMPORT_PARAMS[alg], false, ['sign']);
  } catch {
    // WebCrypto's message names no key: ours says which one and what it must be.
    throw new SigningKeyProblem(`the client JWK is not an ${alg} private key`);
  }
}

function isSigningAlgorithm(value: unknown): value is SigningAlgorithm {
  return typeof value === 'string' && Object.hasOwn(IMPORT_PARAMS, value);
}

/** The DER bytes of a PEM "PRIVATE KEY" block (PKCS#8). */
function pemBody(pem: string): ArrayBuffer {
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(pem);
  if (!match)
    throw new SigningKeyProblem(
      'the client key is a string but not a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"); convert it with `openssl pkcs8 -topk8 -nocrypt`',
    );
  let binary: string;
  try {
    binary = atob((match[1] as string).replace(/\s+/g, ''));
  } catch {
    // atob's message says nothing about keys: ours does.
    throw new SigningKeyProblem('the client key PEM is not valid base64');
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

/** RFC 8693 and the Identity Assertion Authorization Grant draft. */
const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** Where and how an enterprise identity provider exchanges an ID token for an ID-JAG. */
export interface IdJagOptions {
  /** The identity provider's token endpoint (https, or http on this machine). */
  tokenEndpoint: string;
  /** The identity provider's issuer. */
  issuer: string;
  /** The ID token of the person's single sign-on at that provider (or a function that gets a fresh one). */
  idToken: string | (() => Promise<string>);
  /** This app's client id at the identity provider. */
  clientId: string;
  /** Its secret there, when the provider wants client_secret_basic. */
  clientSecret?: string;
}

/**
 * Enterprise-Managed Authorization: an assertion provider that exchanges the person's ID token
 * at their identity provider (RFC 8693 token exchange) for an ID-JAG naming the MCP server's
 * authorization server (`audience`) and resource; the JWT bearer grant then turns that into the
 * server's token. Use it as ClientCredentials.assertion.
 */
export function idJagAssertion(options: IdJagOptions): (request: AssertionRequest) => Promise<string> {
  const idp: oauth.AuthorizationServer = { issuer: options.issuer, token_endpoint: options.tokenEndpoint };
  const client: oauth.Client = { client_id: options.clientId };
  return async (request) => {
    const idToken = typeof options.idToken === 'string' ? options.idToken : await options.idToken();
    const parameters: Record<string, string> = {
      subject_token: idToken,
      subject_token_type: ID_TOKEN_TYPE,
      requested_token_type: ID_JAG_TYPE,
      audience: request.issuer,
      resource: request.resource,
    };
    if (request.scopes.length > 0) parameters.scope = request.scopes.join(' ');
    let answer: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.genericTokenEndpointRequest(
        idp,
        client,
        options.clientSecret ? oauth.ClientSecretBasic(options.clientSecret) : oauth.None(),
        TOKEN_EXCHANGE_GRANT,
        parameters,
        requestOptions(request.fetch, options.tokenEndpoint),
      );
      // An ID-JAG is no access token: its token_type is "N_A" (RFC 8693 §2.2.1).
      answer = await oauth.processGenericTokenEndpointResponse(idp, client, await boundedCopy(response), {
        recognizedTokenTypes: { n_a: () => undefined },
      });
    } catch (error) {
      throw new Error(
        `the identity provider ${options.issuer} did not exchange the ID token for an ID-JAG: ${problemOf(error)}`,
      );
    }
    const issued = (answer as { issued_token_type?: unknown }).issued_token_type;
    if (issued !== ID_JAG_TYPE)
      throw new Error(
        `the identity provider ${options.issuer} issued ${String(issued)} instead of an ID-JAG (${ID_JAG_TYPE})`,
      );
    return answer.access_token;
  };
}
