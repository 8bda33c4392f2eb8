/**
 * Page side of the authorization scenarios (`auth/*`): Toolgate's OAuth fetch layer under the
 * unchanged client, with the browser's real user-agent step: the authorization URL opens in a
 * popup, the suite's authorization server approves without a person and redirects to the
 * callback page on this page's origin (client.mjs serves it), which posts the URL back to its
 * opener. Scenarios that test a refusal pass only when the sign-in failed at the expected step.
 * The extension scenarios that need no person (client credentials, workload identity,
 * enterprise-managed authorization) give the layer the scenario's credentials as a host app would
 * (`clientCredentials`), and the DPoP ones run the same popup flow with DPoP-bound tokens.
 */

import {
  type AuthEvent,
  AuthorizationError,
  type AuthorizationStep,
  type ClientCredentials,
  type ClientIdentity,
  createLazyOAuthFetch,
  idJagAssertion,
  popupAuthorizer,
  type SigningAlgorithm,
} from '../../src/auth/index.js';

/** Where client.mjs answers with the callback page (this harness, which then runs completeSignIn). */
export const CALLBACK_PATH = '/__toolgate_conformance__/callback';

/**
 * The suite's fixed Client ID Metadata Document URL: its authorization servers accept it without
 * fetching it (auth/basic-cimd expects exactly this client_id).
 */
const CONFORMANCE_CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** What the runner passes for pre-registration and extension scenarios (MCP_CONFORMANCE_CONTEXT). */
export interface AuthScenarioData {
  client_id?: string;
  client_secret?: string;
  issuer?: string;
  /** auth/client-credentials-jwt: the client's key, PKCS#8 PEM, and its algorithm. */
  private_key_pem?: string;
  signing_algorithm?: string;
  /** auth/enterprise-managed-authorization: the person's identity provider and ID token. */
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
  /** auth/wif-jwt-bearer: the workload's identity token (the others are for negative tests). */
  valid_jwt?: string;
}

type Expectation = { kind: 'works' } | { kind: 'refused'; step: AuthorizationStep; because: string };

const works: Expectation = { kind: 'works' };
const refused = (step: AuthorizationStep, because: string): Expectation => ({
  kind: 'refused',
  step,
  because,
});

/** What each authorization scenario must end with. */
export const AUTH_EXPECTATIONS: Record<string, Expectation> = {
  'auth/metadata-default': works,
  'auth/metadata-var1': works,
  'auth/metadata-var2': works,
  'auth/metadata-var3': works,
  'auth/basic-cimd': works,
  'auth/scope-from-www-authenticate': works,
  'auth/scope-from-scopes-supported': works,
  'auth/scope-omitted-when-undefined': works,
  'auth/scope-step-up': works,
  'auth/scope-retry-limit': refused('step-up', 'the server wants a scope the token already has'),
  'auth/token-endpoint-auth-basic': works,
  'auth/token-endpoint-auth-post': works,
  'auth/token-endpoint-auth-none': works,
  'auth/pre-registration': works,
  'auth/2025-03-26-oauth-metadata-backcompat': works,
  'auth/2025-03-26-oauth-endpoint-fallback': works,
  'auth/resource-mismatch': refused('discovery', 'the resource metadata names another resource'),
  'auth/offline-access-scope': works,
  'auth/offline-access-not-supported': works,
  'auth/authorization-server-migration': works,
  'auth/iss-supported': works,
  'auth/iss-not-advertised': works,
  'auth/iss-supported-missing': refused('authorization', 'the promised iss is missing'),
  'auth/iss-wrong-issuer': refused('authorization', 'iss names another issuer'),
  'auth/iss-unexpected': refused('authorization', 'an unadvertised iss names another issuer'),
  'auth/iss-normalized': refused('authorization', 'iss matches only after normalization'),
  'auth/metadata-issuer-mismatch': refused('discovery', 'the metadata names another issuer'),
  'auth/client-credentials-jwt': works,
  'auth/client-credentials-basic': works,
  'auth/wif-jwt-bearer': works,
  'auth/enterprise-managed-authorization': works,
  'auth/dpop': works,
  'auth/dpop-nonce': works,
};

/**
 * The host app's own credentials for the scenarios where no person signs in; undefined for the
 * others. Throws when the runner left out what the scenario needs.
 */
function hostCredentials(scenario: string, data: AuthScenarioData): ClientCredentials | undefined {
  const need = (value: string | undefined, name: string): string => {
    if (!value) throw new Error(`${scenario}: the runner's context has no ${name}`);
    return value;
  };
  switch (scenario) {
    case 'auth/client-credentials-jwt':
      return {
        clientId: need(data.client_id, 'client_id'),
        privateKey: need(data.private_key_pem, 'private_key_pem'),
        signingAlgorithm: (data.signing_algorithm ?? 'ES256') as SigningAlgorithm,
      };
    case 'auth/client-credentials-basic':
      return {
        clientId: need(data.client_id, 'client_id'),
        clientSecret: need(data.client_secret, 'client_secret'),
      };
    case 'auth/wif-jwt-bearer': {
      const workloadToken = need(data.valid_jwt, 'valid_jwt');
      return { clientId: need(data.client_id, 'client_id'), assertion: async () => workloadToken };
    }
    case 'auth/enterprise-managed-authorization':
      return {
        clientId: need(data.client_id, 'client_id'),
        clientSecret: need(data.client_secret, 'client_secret'),
        assertion: idJagAssertion({
          tokenEndpoint: need(data.idp_token_endpoint, 'idp_token_endpoint'),
          issuer: need(data.idp_issuer, 'idp_issuer'),
          idToken: need(data.idp_id_token, 'idp_id_token'),
          clientId: need(data.idp_client_id, 'idp_client_id'),
        }),
      };
    default:
      return undefined;
  }
}

/** The steps at which the OAuth layer reported a failure during this page's scenario. */
const failedSteps: AuthorizationStep[] = [];

/** The OAuth fetch for a scenario, logging every sign-in event (events never carry tokens). */
export function authorizingFetch(
  serverUrl: string,
  data: AuthScenarioData,
  underneath: typeof fetch,
  log: (line: string) => void,
  scenario = '',
): typeof fetch {
  const onEvent = (event: AuthEvent) => {
    if (event.type === 'failed') failedSteps.push(event.step);
    log(`auth event: ${describeEvent(event)}`);
  };
  const clientCredentials = hostCredentials(scenario, data);
  if (clientCredentials) {
    log(`signing in as the app itself (${clientCredentials.clientId}), no person and no window`);
    return createLazyOAuthFetch({ serverUrl, fetch: underneath, clientCredentials, onEvent });
  }
  const client: ClientIdentity = {
    clientName: 'Toolgate conformance client',
    redirectUri: `${location.origin}${CALLBACK_PATH}`,
    metadataDocumentUrl: CONFORMANCE_CIMD_URL,
  };
  if (data.client_id)
    client.preRegistered = [
      {
        clientId: data.client_id,
        ...(data.client_secret ? { clientSecret: data.client_secret } : {}),
        ...(data.issuer ? { issuer: data.issuer } : {}),
      },
    ];
  const authorize = popupAuthorizer();
  // Lazy, as a host would wire it: the OAuth layer is loaded at the scenario server's first 401.
  return createLazyOAuthFetch({
    serverUrl,
    fetch: underneath,
    client,
    authorize: async (request) => {
      log(
        `sign-in: opening ${request.url.origin}${request.url.pathname} for ${request.server}, scopes "${request.scopes.join(' ')}"`,
      );
      const landed = await authorize(request);
      log(`sign-in: came back to ${new URL(landed).pathname}`);
      return landed;
    },
    onEvent,
  });
}

/** Runs a scenario's conversation and holds its outcome to the expectation. */
export async function runAuthScenario(
  scenario: string,
  conversation: () => Promise<void>,
  log: (line: string) => void,
): Promise<void> {
  const expected = AUTH_EXPECTATIONS[scenario];
  if (!expected) throw new Error(`no expectation is written for ${scenario}`);
  if (expected.kind === 'works') {
    await conversation();
    return;
  }
  try {
    await conversation();
  } catch (error) {
    if (error instanceof AuthorizationError && error.step === expected.step) {
      log(`refused as expected (${expected.because}): ${error.message}`);
      return;
    }
    // connect() may report another error last: after a failed modern handshake it tries the
    // legacy one, which some scenario servers answer without asking for a token. The OAuth layer's
    // own report says whether the refusal happened, and where.
    if (failedSteps.includes(expected.step)) {
      log(
        `refused as expected (${expected.because}), reported by the OAuth layer; connect() ended with: ${String(error)}`,
      );
      return;
    }
    throw error;
  }
  throw new Error(
    `the conversation succeeded, but it must be refused at ${expected.step}: ${expected.because}`,
  );
}

function describeEvent(event: AuthEvent): string {
  switch (event.type) {
    case 'signed-in':
      return `signed in at ${event.issuer} (${event.client} client), scopes "${event.scopes.join(' ')}"`;
    case 'refreshed':
      return `refreshed at ${event.issuer}`;
    case 'restored':
      return `tokens from an earlier page, issued by ${event.issuer}`;
    case 'signed-out':
      return `signed out${event.revoked ? ', token revoked' : ''}`;
    case 'failed':
      return `failed at ${event.step}: ${event.message}`;
  }
}
