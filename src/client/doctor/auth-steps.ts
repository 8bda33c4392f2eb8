/**
 * The doctor's authorization steps, for a server that answered 401: its challenge (and whether the
 * credentials configured for it were refused: a 401 loop), its protected-resource metadata (and,
 * when none is where clients look, whether it sits somewhere else), its authorization server's
 * metadata (and CORS there), and how Toolgate would register with it. Discovery is sign-in's own
 * code (auth/doctor-discovery.ts), loaded only here.
 */

import type { ClientIdentity } from '../../auth/index.js';
import { type Probe, probe } from './probe.js';
import { type RegistrationSupport, registrationVerdict } from './registration.js';
import type { DoctorStep, Exchange, StepId } from './report.js';

type StepFields = Omit<DoctorStep, 'id' | 'title' | 'exchanges'>;
type AddStep = (id: StepId, step: StepFields, exchanges?: Exchange[]) => void;

interface AuthContext {
  url: string;
  origin: string;
  fetchFn: typeof fetch;
  /** The names of the headers configured for this server that were sent (their values never shown). */
  configured: readonly string[];
  /** Who Toolgate is to authorization servers for this server (its `auth.client`), if the host said. */
  identity?: ClientIdentity;
  /** The error of the server's last connection, as shown. */
  lastError?: string;
  /** The host app signs in as itself (`auth.clientCredentials`). */
  appSignsIn?: boolean;
  add: AddStep;
}

const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';

export async function authorizationSteps(context: AuthContext, unauthorized: Probe): Promise<void> {
  const { url, origin, fetchFn, add } = context;
  const auth = await import('../../auth/doctor-discovery.js');
  const header = unauthorized.response?.headers.get('www-authenticate') ?? null;
  const challenge = auth.bearerChallenge(header);
  const refusedAfterSignIn = context.lastError?.includes(auth.TOKEN_REFUSED_AGAIN) === true;
  add('authorization', challengeVerdict(header, challenge, context, refusedAfterSignIn), [
    unauthorized.exchange,
  ]);

  const seen: Exchange[] = [];
  const recording = recordingFetch(fetchFn, seen);
  const take = () => seen.splice(0);
  const server = new URL(url);
  let issuer = server.origin;
  try {
    const prm = await auth.discoverResourceMetadata(recording, server, challenge?.resourceMetadata);
    if (prm) {
      issuer = prm.metadata.authorizationServers[0] ?? issuer;
      add(
        'resource-metadata',
        { outcome: 'pass', reason: `Read at ${prm.url}: the authorization server is ${issuer}.` },
        take(),
      );
    } else {
      const looked = take();
      const misplaced = await misplacedMetadata(fetchFn, url);
      add(
        'resource-metadata',
        {
          outcome: 'fail',
          reason: misplaced
            ? `The protected-resource metadata is at ${misplaced.exchange.url}, where clients do not look: serve it at ${auth.protectedResourceMetadataUrls(server)[0]} (the well-known part goes right after the host), or name its URL in WWW-Authenticate as resource_metadata="…".`
            : `No protected-resource metadata at any well-known location: serve it at ${server.origin}${PRM_WELL_KNOWN} (with CORS for this page) or name it in WWW-Authenticate.`,
        },
        [...looked, ...(misplaced ? [misplaced.exchange] : [])],
      );
      skipAfterMetadata(add);
      return;
    }
  } catch (error) {
    const exchanges = take();
    add('resource-metadata', await failedRead(fetchFn, error, origin, exchanges), exchanges);
    skipAfterMetadata(add);
    return;
  }
  try {
    const found = await auth.discoverAuthorizationServer(recording, issuer);
    if (!found) {
      add(
        'authorization-server',
        {
          outcome: 'fail',
          reason: `${issuer} publishes no authorization server metadata at its well-known locations.`,
        },
        take(),
      );
      add('registration', { outcome: 'skipped', reason: 'The authorization server must be known first.' });
      return;
    }
    add(
      'authorization-server',
      { outcome: 'pass', reason: `The metadata of ${issuer} is readable from this page, at ${found.url}.` },
      take(),
    );
    const support: RegistrationSupport = {
      issuer: found.metadata.issuer,
      dynamic: typeof found.metadata.registration_endpoint === 'string',
      metadataDocument: found.metadata.client_id_metadata_document_supported === true,
    };
    const { outcome, reason } = registrationVerdict(support, context.identity, context.appSignsIn === true);
    add('registration', { outcome, reason });
  } catch (error) {
    const exchanges = take();
    add('authorization-server', await failedRead(fetchFn, error, origin, exchanges), exchanges);
    add('registration', {
      outcome: 'skipped',
      reason: "The authorization server's metadata must be readable first.",
    });
  }
}

function skipAfterMetadata(add: AddStep): void {
  add('authorization-server', {
    outcome: 'skipped',
    reason: 'The resource metadata must be readable first.',
  });
  add('registration', { outcome: 'skipped', reason: 'Skipped for the same reason.' });
}

/** The 401's challenge: readable, and, when credentials were configured and sent, refused again. */
function challengeVerdict(
  header: string | null,
  challenge: { resourceMetadata?: string; error?: string; errorDescription?: string } | undefined,
  context: AuthContext,
  refusedAfterSignIn: boolean,
): StepFields {
  if (header === null)
    return {
      outcome: 'fail',
      missingHeader: 'Access-Control-Expose-Headers',
      reason:
        'The server answered 401 but the page cannot read its WWW-Authenticate: it must send it and Access-Control-Expose-Headers: www-authenticate.',
    };
  if (context.configured.length > 0) {
    const said = challenge?.error
      ? ` (it says ${challenge.error}${challenge.errorDescription ? `: “${challenge.errorDescription}”` : ''})`
      : '';
    return {
      outcome: 'fail',
      reason: `A 401 loop: the request carried the credentials configured for this server (${context.configured.join(', ')}) and the server answered 401 again${said}. A new token gets the same answer while the server refuses what its authorization server issues: ask its owner to check that it accepts tokens for ${context.url} (audience or resource, issuer, clock), or replace the configured credentials.`,
    };
  }
  if (refusedAfterSignIn)
    return {
      outcome: 'fail',
      reason: `A 401 loop: the last sign-in got a token from the authorization server and the server answered 401 to it at once, so signing in again gets the same answer. Ask its owner to check that it accepts the tokens its authorization server issues for ${context.url} (audience or resource, issuer, clock).`,
    };
  return {
    outcome: 'pass',
    reason: challenge?.resourceMetadata
      ? `The server asks for sign-in (401) and names its resource metadata at ${challenge.resourceMetadata}.`
      : 'The server asks for sign-in (401); its challenge names no resource metadata, so the well-known locations are read.',
  };
}

/**
 * Where servers often put their metadata by mistake: under the endpoint's own path. Found there
 * (a JSON object with a `resource`), the fix is to move it, not to write it.
 */
async function misplacedMetadata(fetchFn: typeof fetch, url: string): Promise<Probe | undefined> {
  const candidate = `${url.replace(/\/+$/, '')}${PRM_WELL_KNOWN}`;
  const found = await probe(fetchFn, candidate, { method: 'GET', headers: { accept: 'application/json' } });
  if (found.exchange.status !== 200 || !found.exchange.responseBody) return undefined;
  try {
    const value: unknown = JSON.parse(found.exchange.responseBody);
    return typeof value === 'object' && value !== null && 'resource' in value ? found : undefined;
  } catch {
    // Not JSON: not metadata put in the wrong place.
    return undefined;
  }
}

/**
 * A discovery read that failed. A fetch the browser rejected is CORS at that server when a no-cors
 * request to the same URL is answered, and the server being down when it is not.
 */
async function failedRead(
  fetchFn: typeof fetch,
  error: unknown,
  origin: string,
  exchanges: Exchange[],
): Promise<StepFields> {
  const message = String((error as Error)?.message ?? error);
  const rejected = [...exchanges].reverse().find((exchange) => exchange.error !== undefined);
  if (!rejected) return { outcome: 'fail', reason: message.endsWith('.') ? message : `${message}.` };
  const target = new URL(rejected.url);
  const blind = await probe(fetchFn, rejected.url, { method: 'GET', mode: 'no-cors' });
  exchanges.push(blind.exchange);
  if (!blind.response)
    return {
      outcome: 'fail',
      reason: `Nothing answered at ${target.origin}: that server is down or unreachable from here.`,
    };
  return {
    outcome: 'fail',
    missingHeader: 'Access-Control-Allow-Origin',
    refusedOrigin: target.origin,
    reason: `${target.origin} answers, but not to pages: it must send Access-Control-Allow-Origin: ${origin} on ${target.pathname} (and on its token and registration endpoints), or this page cannot sign in there.`,
  };
}

/** A fetch that keeps each request and what the page could read of its answer. */
function recordingFetch(fetchFn: typeof fetch, seen: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const exchange: Exchange = {
      method: request.method,
      url: request.url,
      requestHeaders: Object.fromEntries(request.headers.entries()),
    };
    seen.push(exchange);
    try {
      const response = await fetchFn(input, init);
      exchange.status = response.status;
      exchange.responseHeaders = Object.fromEntries(response.headers.entries());
      return response;
    } catch (error) {
      exchange.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw error;
    }
  };
}
