/**
 * Who Toolgate is to an authorization server, in the MCP specification's order of preference:
 * pre-registered credentials the host supplies for that server, then a Client ID Metadata Document
 * (an https URL the host serves) when the server supports them, then Dynamic Client Registration
 * (RFC 7591, done by oauth4webapi). Registrations belong to the issuer that made them and are never
 * offered to another one (a server that moves to a new authorization server gets a new client).
 */

import * as oauth from 'oauth4webapi';
import { isLoopbackHost } from '../transport/index.js';
import { type AuthorizationServerMetadata, problemOf, requestOptions } from './authorization-server.js';
import { BodyProblem, bodylessHeaders, boundedCopy } from './json-body.js';
import type { AuthStore } from './store.js';

export type TokenEndpointAuthMethod =
  | 'none'
  | 'client_secret_basic'
  | 'client_secret_post'
  /** A JWT signed with the client's private key (RFC 7523 §2.2), from a host's own key. */
  | 'private_key_jwt';

/** Credentials a host registered with an authorization server beforehand. */
export interface PreRegisteredClient {
  /** The issuer they were registered with; omitted, they are offered to whichever server is named. */
  issuer?: string;
  clientId: string;
  /** Only from a host's own configuration, never from the widget's code. */
  clientSecret?: string;
  /**
   * For private_key_jwt: the signing key the authorization server knows the public half of
   * (a non-extractable CryptoKey serves; client-credentials.ts imports a JWK or PKCS#8 PEM).
   */
  privateKey?: CryptoKey;
  /** The `kid` of that key, when the authorization server needs it to find the public key. */
  keyId?: string;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

export interface ClientIdentity {
  /** Shown by the authorization server on its consent screen (registration). */
  clientName: string;
  /** Where the authorization server sends the person back: a page of the host app. */
  redirectUri: string;
  /** A Client ID Metadata Document URL (https, with a path) the host serves. */
  metadataDocumentUrl?: string;
  preRegistered?: PreRegisteredClient[];
  /** Dynamic Client Registration as the last resort; on unless false. */
  dynamicRegistration?: boolean;
  clientUri?: string;
  logoUri?: string;
}

/** A client identity at one authorization server. */
export interface RegisteredClient {
  issuer: string;
  how: 'pre-registered' | 'metadata-document' | 'dynamic';
  client: oauth.Client;
  clientSecret?: string;
  /** Pre-registered clients only (a registration kept in the store never holds a key). */
  privateKey?: CryptoKey;
  keyId?: string;
}

export class RegistrationProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistrationProblem';
  }
}

/** Finds or makes the client identity for `as`; throws RegistrationProblem when there is none. */
export async function clientFor(
  identity: ClientIdentity,
  as: AuthorizationServerMetadata,
  store: AuthStore,
  fetchFn: typeof fetch,
): Promise<RegisteredClient> {
  const known = await knownClient(identity, as, store);
  if (known) return known;
  const issuer = as.issuer;
  const preRegistered = identity.preRegistered ?? [];
  if (identity.dynamicRegistration !== false && as.registration_endpoint) {
    const registered = await register(identity, as, fetchFn);
    await store.set(registrationKey(issuer, identity.redirectUri), registered);
    return registered;
  }
  const others = preRegistered.map((entry) => entry.issuer).filter((value) => value !== undefined);
  throw new RegistrationProblem(
    others.length > 0
      ? `the pre-registered client belongs to ${others.join(', ')}, not to ${issuer}, and ${issuer} offers no other way to register`
      : `${issuer} accepts neither a Client ID Metadata Document${identity.metadataDocumentUrl ? '' : ' (none is configured)'} nor Dynamic Client Registration; ask its operator for a client id and configure it as pre-registered`,
  );
}

/**
 * The client identity for `as` that exists without registering: pre-registered, a metadata
 * document, or a registration kept in the store. A refresh needs exactly the client its token was
 * issued to, so it asks this and never registers a new one.
 */
export async function knownClient(
  identity: ClientIdentity,
  as: AuthorizationServerMetadata,
  store: AuthStore,
): Promise<RegisteredClient | undefined> {
  const issuer = as.issuer;
  const preRegistered = identity.preRegistered ?? [];
  const mine = preRegistered.find((entry) => entry.issuer !== undefined && sameIssuer(entry.issuer, issuer));
  const unbound = preRegistered.find((entry) => entry.issuer === undefined);
  const chosen = mine ?? unbound;
  if (chosen) return preRegisteredClient(issuer, chosen);
  if (identity.metadataDocumentUrl && as.client_id_metadata_document_supported === true) {
    checkMetadataDocumentUrl(identity.metadataDocumentUrl);
    return {
      issuer,
      how: 'metadata-document',
      client: { client_id: identity.metadataDocumentUrl, token_endpoint_auth_method: 'none' },
    };
  }
  if (identity.dynamicRegistration !== false && as.registration_endpoint) {
    const saved = await store.get<RegisteredClient>(registrationKey(issuer, identity.redirectUri));
    if (saved && saved.issuer === issuer) return saved;
  }
  return undefined;
}

/** How this client authenticates at the token endpoint, as oauth4webapi applies it. */
export function clientAuthentication(
  registered: RegisteredClient,
  as: AuthorizationServerMetadata,
): oauth.ClientAuth {
  const method = authMethodOf(registered, as);
  if (method === 'none') return oauth.None();
  if (method === 'private_key_jwt') {
    if (!registered.privateKey)
      throw new RegistrationProblem(
        `${as.issuer} expects private_key_jwt but this client has no private key`,
      );
    // oauth4webapi signs the assertion: iss and sub the client id, aud the issuer, a minute's life.
    return oauth.PrivateKeyJwt(
      registered.keyId ? { key: registered.privateKey, kid: registered.keyId } : registered.privateKey,
    );
  }
  if (!registered.clientSecret)
    throw new RegistrationProblem(`${as.issuer} expects ${method} but this client has no secret for it`);
  return method === 'client_secret_post'
    ? oauth.ClientSecretPost(registered.clientSecret)
    : clientSecretBasic(registered.clientSecret);
}

/**
 * client_secret_basic with the WHATWG form encoding of id and secret (letters, digits and `*-._`
 * stay as they are). oauth4webapi's own encodes `-`, `.` and `_` too (HTML 4.01's rule), and
 * servers that do not form-decode the Basic credentials, the MCP SDK's among them, then see
 * another client id than the one they issued; for ids and secrets made of those characters
 * (nearly all), both encodings decode to the same value.
 */
function clientSecretBasic(clientSecret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${encode(client.client_id)}:${encode(clientSecret)}`)}`);
  };
}

/**
 * The registered method if there is one; else, with a private key, private_key_jwt (unless the
 * server lists its methods without it and a secret is at hand); else, with a secret, the first of
 * basic and post the server supports (RFC 8414's default list is basic alone); else none.
 */
export function authMethodOf(
  registered: RegisteredClient,
  as: AuthorizationServerMetadata,
): TokenEndpointAuthMethod {
  const registeredMethod = registered.client.token_endpoint_auth_method;
  if (
    registeredMethod === 'none' ||
    registeredMethod === 'client_secret_basic' ||
    registeredMethod === 'client_secret_post' ||
    registeredMethod === 'private_key_jwt'
  )
    return registeredMethod;
  const listed = as.token_endpoint_auth_methods_supported;
  if (registered.privateKey && (!registered.clientSecret || !listed || listed.includes('private_key_jwt')))
    return 'private_key_jwt';
  if (!registered.clientSecret) return 'none';
  const supported = listed ?? ['client_secret_basic'];
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'none';
}

/** Forgets a dynamic registration (a server refused it, or the person signs out for good). */
export async function forgetRegistration(
  store: AuthStore,
  issuer: string,
  redirectUri: string,
): Promise<void> {
  await store.delete(registrationKey(issuer, redirectUri));
}

async function register(
  identity: ClientIdentity,
  as: AuthorizationServerMetadata,
  fetchFn: typeof fetch,
): Promise<RegisteredClient> {
  const metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {
    client_name: identity.clientName,
    redirect_uris: [identity.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // A page in a browser keeps no secret: it registers as a public client.
    token_endpoint_auth_method: 'none',
    // MCP (SEP-837): "native" for clients on this machine, "web" for pages served from elsewhere.
    application_type: isLoopbackHost(new URL(identity.redirectUri).hostname) ? 'native' : 'web',
    ...(identity.clientUri ? { client_uri: identity.clientUri } : {}),
    ...(identity.logoUri ? { logo_uri: identity.logoUri } : {}),
  };
  let client: oauth.OmitSymbolProperties<oauth.Client>;
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      requestOptions(fetchFn, as.registration_endpoint),
    );
    client = await oauth.processDynamicClientRegistrationResponse(await withSecretExpiry(response));
  } catch (error) {
    throw new RegistrationProblem(
      `${as.registration_endpoint} refused the registration: ${error instanceof BodyProblem ? error.message : problemOf(error)}`,
    );
  }
  const { client_secret: secret, ...rest } = client as typeof client & { client_secret?: unknown };
  return {
    issuer: as.issuer,
    how: 'dynamic',
    client: rest,
    ...(typeof secret === 'string' && secret ? { clientSecret: secret } : {}),
  };
}

/**
 * RFC 7591 requires `client_secret_expires_at` with every issued secret (0: never expires), and
 * oauth4webapi insists on it; some servers (the conformance suite's among them) leave it out.
 * Read leniently, a missing expiry is "never": the secret is used until the server refuses it,
 * and then the registration is made again.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  const copy = await boundedCopy(response);
  if (response.status !== 201) return copy;
  const text = await copy.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: oauth4webapi reports the body itself, so it gets it unchanged.
    return new Response(text, { status: copy.status, headers: bodylessHeaders(copy.headers) });
  }
  if (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Record<string, unknown>).client_secret === 'string' &&
    (body as Record<string, unknown>).client_secret_expires_at === undefined
  )
    (body as Record<string, unknown>).client_secret_expires_at = 0;
  return new Response(JSON.stringify(body), { status: copy.status, headers: bodylessHeaders(copy.headers) });
}

function checkMetadataDocumentUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The configured address is wrong: say so, naming it.
    throw new RegistrationProblem(`the Client ID Metadata Document URL ${url} does not parse`);
  }
  if (parsed.protocol !== 'https:' || parsed.pathname === '/' || parsed.hash)
    throw new RegistrationProblem(
      `the Client ID Metadata Document URL ${url} must be https with a path and no fragment`,
    );
}

/** A pre-registered client as the client `issuer` knows (the host's own, or the app's credentials). */
export function preRegisteredClient(issuer: string, entry: PreRegisteredClient): RegisteredClient {
  return {
    issuer,
    how: 'pre-registered',
    client: {
      client_id: entry.clientId,
      ...(entry.tokenEndpointAuthMethod ? { token_endpoint_auth_method: entry.tokenEndpointAuthMethod } : {}),
    },
    ...(entry.clientSecret ? { clientSecret: entry.clientSecret } : {}),
    ...(entry.privateKey ? { privateKey: entry.privateKey } : {}),
    ...(entry.keyId ? { keyId: entry.keyId } : {}),
  };
}

/** Whether two issuer identifiers name the same server (as URLs; as strings when one does not parse). */
export function sameIssuer(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    // One of them is not a URL: compare them as written.
    return a === b;
  }
}

function registrationKey(issuer: string, redirectUri: string): string {
  return `registration ${issuer} ${redirectUri}`;
}
