/**
 * The connection doctor: a step-by-step check of a server URL from this page, returned as a
 * timeline (see report.ts). It sends its own small requests rather than connecting, so every step
 * shows what it sent and what the page could read, and a step that cannot run says why it was
 * skipped. Loaded only when someone presses Diagnose.
 */

import type { ClientIdentity } from '../../auth/index.js';
import {
  isJsonObject,
  isLegacyVersion,
  isModernVersion,
  type JsonObject,
  LATEST_LEGACY,
  LATEST_MODERN,
  LEGACY_VERSIONS,
  META,
  MODERN_VERSIONS,
} from '../../protocol/index.js';
import { authorizationSteps } from './auth-steps.js';
import { corsFix } from './cors-fix.js';
import { type Probe, probe } from './probe.js';
import { type DoctorReport, type DoctorStep, type Exchange, redactExchange, type StepId } from './report.js';
import { preflightVerdict, sessionHeaderVerdict, simpleCorsVerdict } from './verdicts.js';

export interface DiagnoseOptions {
  /** The page's origin (defaults to this page's). */
  origin?: string;
  fetch?: typeof fetch;
  /**
   * The headers configured for the server (an API key, an Authorization): sent as a connection
   * sends them, tried in the preflight, and never shown: the report names them, values redacted.
   */
  headers?: Readonly<Record<string, string>>;
  /** The error of the server's last connection, as shown: a fresh token refused there is a 401 loop. */
  lastError?: string;
  /** The server's sign-in settings (`auth`), so the registration step says which way is taken. */
  auth?: { client?: ClientIdentity; clientCredentials?: unknown };
}

const TITLES: Record<StepId, string> = {
  reachability: 'Reachability',
  cors: 'CORS for this page',
  preflight: 'CORS preflight',
  protocol: 'Protocol era and version',
  'session-header': 'Session header',
  authorization: 'Authorization (401)',
  'resource-metadata': 'Protected-resource metadata',
  'authorization-server': 'Authorization server',
  registration: 'Client registration',
  'tools-list': 'First tools/list',
};

const CLIENT_INFO = { name: 'toolgate-doctor', version: '1' };
const ACCEPT = 'application/json, text/event-stream';
/** The request headers Toolgate may add to a POST, each tried alone so a refused one is named. */
const PROBED_HEADERS: Record<string, string> = {
  accept: ACCEPT,
  'mcp-protocol-version': LATEST_MODERN,
  'mcp-method': 'ping',
  'mcp-session-id': 'toolgate-doctor-probe',
  authorization: 'Bearer toolgate-doctor-probe',
  'last-event-id': '0',
};
const PING = JSON.stringify({ jsonrpc: '2.0', id: 'toolgate-doctor', method: 'ping' });

export async function diagnose(url: string, options: DiagnoseOptions = {}): Promise<DoctorReport> {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const origin = options.origin ?? globalThis.location?.origin ?? 'null';
  const configured = lowerCased({ ...(options.headers ?? {}) });
  const steps: DoctorStep[] = [];
  const add = (
    id: StepId,
    step: Omit<DoctorStep, 'id' | 'title' | 'exchanges'>,
    exchanges: Exchange[] = [],
  ) =>
    steps.push({
      id,
      title: TITLES[id],
      ...step,
      exchanges: exchanges.map((exchange) => redactExchange(exchange, configured)),
    });
  // The first skipped step says why; the ones after it only point back, so the reason is read once.
  const skipRest = (ids: StepId[], reason: string) => {
    for (const [index, id] of ids.entries())
      add(id, { outcome: 'skipped', reason: index === 0 ? reason : 'Skipped for the same reason.' });
  };
  /** Every step not taken yet (TITLES is in the order they run): the doctor stops here. */
  const skipRemaining = (reason: string) =>
    skipRest(
      (Object.keys(TITLES) as StepId[]).filter((id) => !steps.some((step) => step.id === id)),
      reason,
    );
  const report = (): DoctorReport => {
    const corsFailure = steps.some(
      (step) =>
        step.outcome === 'fail' &&
        (step.id === 'cors' || step.id === 'preflight' || step.id === 'session-header'),
    );
    const extra = Object.keys(configured);
    const refusedOrigin = corsFailure
      ? new URL(url).origin
      : steps.find((step) => step.outcome === 'fail' && step.refusedOrigin)?.refusedOrigin;
    return {
      url,
      origin,
      steps,
      corsFailure,
      ...(corsFailure ? { fix: corsFix(origin, url, extra) } : {}),
      ...(refusedOrigin ? { refusedOrigin } : {}),
    };
  };

  // 1. Reachability: a no-cors request reaches the server whatever its CORS (its answer is opaque).
  const reach = await probe(fetchFn, url, {
    method: 'POST',
    mode: 'no-cors',
    headers: { 'content-type': 'text/plain' },
    body: PING,
  });
  const reached = reach.response !== undefined;
  add(
    'reachability',
    reached
      ? {
          outcome: 'pass',
          reason: 'Something answers at this address (the browser hides what, without CORS).',
        }
      : {
          outcome: 'fail',
          reason: `Nothing answered at ${url}: check the address, and that the server is running.`,
        },
    [reach.exchange],
  );
  if (!reached) {
    skipRemaining('Nothing answered, so this could not be checked.');
    return report();
  }

  // 2. CORS on a simple request (no preflight): the answer must name this origin.
  const simple = await probe(fetchFn, url, { method: 'GET', headers: { accept: 'text/event-stream' } });
  const corsStep = simpleCorsVerdict(reached, simple.response !== undefined, origin);
  add('cors', corsStep, [simple.exchange]);
  void simple.response?.body?.cancel().catch(() => undefined);
  if (corsStep.outcome !== 'pass') {
    skipRemaining(
      `The page cannot read the server's answers until it sends Access-Control-Allow-Origin: ${origin}.`,
    );
    return report();
  }

  // 3. Preflight: a JSON POST, then each further header alone, so a refused header is named.
  const json = { 'content-type': 'application/json' };
  const base = await probe(fetchFn, url, { method: 'POST', headers: json, body: PING });
  const exchanges = [base.exchange];
  const perHeader: Record<string, boolean> = {};
  // The configured headers too, with their own values: a refused API key header is named.
  const tried = { ...PROBED_HEADERS, ...configured };
  if (base.response)
    for (const [name, value] of Object.entries(tried)) {
      const one = await probe(fetchFn, url, {
        method: 'POST',
        headers: { ...json, [name]: value },
        body: PING,
      });
      perHeader[name] = one.response !== undefined;
      if (!one.response) exchanges.push(one.exchange);
    }
  const preflight = preflightVerdict(base.response !== undefined, perHeader, origin);
  add(
    'preflight',
    {
      outcome: preflight.outcome,
      reason: preflight.reason,
      ...(preflight.missingHeader ? { missingHeader: preflight.missingHeader } : {}),
    },
    exchanges,
  );
  if (preflight.outcome === 'fail') {
    skipRemaining('The preflight must pass before the server can be asked anything.');
    return report();
  }

  // 4. Protocol: server/discover at the newest modern version, else the legacy initialize.
  const opening = await openConversation(fetchFn, url, configured);
  const result = report();
  if (opening.era) result.era = opening.era;
  if (opening.version) result.protocolVersion = opening.version;
  if (opening.unauthorized) {
    add(
      'protocol',
      { outcome: 'skipped', reason: 'The server asks for sign-in before it says which protocol it speaks.' },
      opening.exchanges,
    );
    add('session-header', { outcome: 'skipped', reason: 'The server asks for sign-in first.' });
    const sent = Object.keys(configured).filter((name) => name !== 'content-type');
    await authorizationSteps(
      {
        url,
        origin,
        fetchFn,
        configured: sent,
        ...(options.lastError ? { lastError: options.lastError } : {}),
        ...(options.auth?.client ? { identity: options.auth.client } : {}),
        appSignsIn: options.auth?.clientCredentials !== undefined,
        add,
      },
      opening.unauthorized,
    );
    add('tools-list', {
      outcome: 'skipped',
      reason: 'The doctor does not sign in: sign in from the server card, then diagnose again.',
    });
    return { ...report(), ...pick(result) };
  }
  add('protocol', { outcome: opening.outcome, reason: opening.reason }, opening.exchanges);
  if (opening.outcome === 'fail') {
    skipRemaining('The conversation could not open.');
    return { ...report(), ...pick(result) };
  }

  // 5. A first tools/list, with the session id the page could read (legacy).
  const list = await listTools(fetchFn, url, opening, configured);
  if (opening.era === 'legacy') {
    const refused = list.exchange.status === 400 || list.exchange.status === 404;
    add(
      'session-header',
      sessionHeaderVerdict(opening.session !== undefined, !opening.session && refused, origin),
    );
  } else
    add('session-header', {
      outcome: 'skipped',
      reason: `${opening.version} has no sessions, so no mcp-session-id is needed.`,
    });
  skipRest(
    ['authorization', 'resource-metadata', 'authorization-server', 'registration'],
    'The server did not ask for sign-in.',
  );
  const tools = list.message && isJsonObject(list.message.result) ? list.message.result.tools : undefined;
  add(
    'tools-list',
    Array.isArray(tools)
      ? { outcome: 'pass', reason: `The server listed ${tools.length} tool${tools.length === 1 ? '' : 's'}.` }
      : {
          outcome: 'fail',
          reason: list.exchange.error
            ? `tools/list failed: ${list.exchange.error}.`
            : `tools/list answered HTTP ${list.exchange.status ?? '?'} without a tool list.`,
        },
    [list.exchange],
  );
  return { ...report(), ...pick(result) };
}

const pick = (result: DoctorReport) => ({
  ...(result.era ? { era: result.era } : {}),
  ...(result.protocolVersion ? { protocolVersion: result.protocolVersion } : {}),
});

interface Opening {
  outcome: 'pass' | 'fail';
  reason: string;
  exchanges: Exchange[];
  era?: 'modern' | 'legacy';
  version?: string;
  session?: string;
  unauthorized?: Probe;
}

function rpc(method: string, params: JsonObject, id: string | undefined = 'toolgate-doctor'): string {
  return JSON.stringify({ jsonrpc: '2.0', ...(id ? { id } : {}), method, params });
}

const modernMeta = (version: string) => ({
  _meta: {
    [META.protocolVersion]: version,
    [META.clientInfo]: CLIENT_INFO,
    [META.clientCapabilities]: {},
  },
});

async function openConversation(
  fetchFn: typeof fetch,
  url: string,
  configured: Record<string, string>,
): Promise<Opening> {
  const headers = (version: string, method: string) => ({
    ...configured,
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-protocol-version': version,
    'mcp-method': method,
  });
  const discover = await probe(fetchFn, url, {
    method: 'POST',
    headers: headers(LATEST_MODERN, 'server/discover'),
    body: rpc('server/discover', modernMeta(LATEST_MODERN)),
  });
  const exchanges = [discover.exchange];
  if (discover.exchange.status === 401)
    return { outcome: 'fail', reason: '', exchanges, unauthorized: discover };
  const found = discover.message;
  const supported = supportedIn(found);
  const modern = supported.find(
    (v) => isModernVersion(v) && (MODERN_VERSIONS as readonly string[]).includes(v),
  );
  if (modern)
    return {
      outcome: 'pass',
      reason: `The server speaks the 2026-07-28 era: server/discover lists ${supported.join(', ')}, and Toolgate uses ${modern}.`,
      exchanges,
      era: 'modern',
      version: modern,
    };
  if (supported.length > 0 && !supported.some((v) => isLegacyVersion(v)))
    return {
      outcome: 'fail',
      reason: `The server speaks MCP ${supported.join(', ')}; Toolgate speaks ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(', ')}.`,
      exchanges,
    };
  const initialize = await probe(fetchFn, url, {
    method: 'POST',
    headers: { ...configured, 'content-type': 'application/json', accept: ACCEPT },
    body: rpc('initialize', { protocolVersion: LATEST_LEGACY, capabilities: {}, clientInfo: CLIENT_INFO }),
  });
  exchanges.push(initialize.exchange);
  if (initialize.exchange.status === 401)
    return { outcome: 'fail', reason: '', exchanges, unauthorized: initialize };
  const result =
    initialize.message && isJsonObject(initialize.message.result) ? initialize.message.result : undefined;
  const version = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
  if (!version)
    return {
      outcome: 'fail',
      reason: initialize.exchange.error
        ? `Neither server/discover nor initialize was answered (${initialize.exchange.error}).`
        : `Neither server/discover nor initialize got an MCP answer (initialize: HTTP ${initialize.exchange.status}).`,
      exchanges,
    };
  if (!(LEGACY_VERSIONS as readonly string[]).includes(version))
    return {
      outcome: 'fail',
      reason: `The server answered initialize with protocol version ${version}, which Toolgate does not speak (it speaks ${[...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(', ')}).`,
      exchanges,
    };
  const session = initialize.response?.headers.get('mcp-session-id') ?? undefined;
  await probe(fetchFn, url, {
    method: 'POST',
    headers: {
      ...configured,
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': version,
      ...(session ? { 'mcp-session-id': session } : {}),
    },
    body: rpc('notifications/initialized', {}, ''),
  });
  return {
    outcome: 'pass',
    reason: `The server speaks the legacy era: initialize agreed on ${version}.`,
    exchanges,
    era: 'legacy',
    version,
    ...(session ? { session } : {}),
  };
}

function supportedIn(message: JsonObject | undefined): string[] {
  if (!message) return [];
  const from = isJsonObject(message.result)
    ? message.result.supportedVersions
    : isJsonObject(message.error) && isJsonObject(message.error.data)
      ? message.error.data.supported
      : undefined;
  return Array.isArray(from) ? from.filter((v): v is string => typeof v === 'string') : [];
}

async function listTools(
  fetchFn: typeof fetch,
  url: string,
  opening: Opening,
  configured: Record<string, string>,
): Promise<Probe> {
  const version = opening.version ?? LATEST_LEGACY;
  const modern = opening.era === 'modern';
  return probe(fetchFn, url, {
    method: 'POST',
    headers: {
      ...configured,
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': version,
      ...(modern ? { 'mcp-method': 'tools/list' } : {}),
      ...(opening.session ? { 'mcp-session-id': opening.session } : {}),
    },
    body: rpc('tools/list', modern ? modernMeta(version) : {}),
  });
}

const lowerCased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
