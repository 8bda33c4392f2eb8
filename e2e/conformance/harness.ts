/**
 * Page side of the conformance client command: runs one scenario of the official MCP conformance
 * suite with Toolgate's own client, inside Chromium, against the scenario server (whose origin this
 * page is served from, because scenario servers send no CORS headers).
 *
 * The server side does the judging; this code only drives the client the way each scenario expects
 * and fails loudly when the client itself throws or answers something unexpected.
 */

import {
  type CallToolResult,
  type ClientWarning,
  type ConnectOptions,
  connect,
  type ElicitationHandler,
  type McpClient,
} from '../../src/index.js';

/** What runScenario hands back to Node: `log` is printed to stderr for debugging. */
export interface ScenarioOutcome {
  ok: boolean;
  scenario: string;
  log: string[];
  error?: string;
}

declare global {
  interface Window {
    runScenario: (url: string, scenario: string) => Promise<ScenarioOutcome>;
  }
}

/** The page's own budget; the Node side and the runner (30 s) have longer ones, so this one reports. */
const SCENARIO_DEADLINE_MS = 20_000;

type Step = (ctx: ScenarioContext) => Promise<void>;

interface ScenarioContext {
  log: (line: string) => void;
  /** Resolves once a GET answered with an event stream (the server-to-client stream is open). */
  serverStreamOpen: Promise<void>;
  connectOptions: ConnectOptions;
  /** Set by `open`, closed by runScenario whatever happens. */
  client?: McpClient;
  elicitations: number;
}

async function open(ctx: ScenarioContext): Promise<McpClient> {
  const client = await connect(ctx.connectOptions);
  ctx.client = client;
  ctx.log(`connected: era ${client.era}, protocol ${client.protocolVersion}, server ${serverName(client)}`);
  return client;
}

async function listToolNames(ctx: ScenarioContext, client: McpClient): Promise<string[]> {
  const names = (await client.listTools()).map((tool) => tool.name);
  ctx.log(`tools/list: ${names.join(', ') || '(none)'}`);
  return names;
}

async function callExpecting(
  ctx: ScenarioContext,
  client: McpClient,
  name: string,
  args: Record<string, number>,
  expected: RegExp,
): Promise<void> {
  const names = await listToolNames(ctx, client);
  if (!names.includes(name)) throw new Error(`the server did not list ${name}`);
  const result = await client.callTool(name, args);
  const text = textOf(result);
  ctx.log(`tools/call ${name}: ${result.isError ? 'isError, ' : ''}${text}`);
  if (result.isError) throw new Error(`${name} returned a tool error: ${text}`);
  if (!expected.test(text)) throw new Error(`${name} returned ${JSON.stringify(text)}, expected ${expected}`);
}

const SCENARIOS: Record<string, Step> = {
  async initialize(ctx) {
    const client = await open(ctx);
    await listToolNames(ctx, client);
  },

  async tools_call(ctx) {
    const client = await open(ctx);
    await callExpecting(ctx, client, 'add_numbers', { a: 5, b: 3 }, /\b8\b/);
  },

  async 'elicitation-sep1034-client-defaults'(ctx) {
    const client = await open(ctx);
    // The server sends elicitation/create on the standalone GET stream, and a server built on the
    // official SDK drops it when that stream is not open yet: connect() must return only once it is.
    const openAtConnect = await Promise.race([
      ctx.serverStreamOpen.then(() => true),
      delay(0).then(() => false),
    ]);
    if (!openAtConnect) throw new Error('connect() returned before the server-to-client GET stream was open');
    ctx.log('server-to-client GET stream was open when connect() returned');
    await callExpecting(ctx, client, 'test_client_elicitation_defaults', {}, /^Elicitation completed/);
    if (ctx.elicitations !== 1) throw new Error(`expected one elicitation, got ${ctx.elicitations}`);
  },

  async 'sse-retry'(ctx) {
    // The tools/call stream closes after a priming event (id + retry: 500); the answer only comes on
    // the GET Toolgate must open ~500 ms later with Last-Event-ID.
    const client = await open(ctx);
    await callExpecting(ctx, client, 'test_reconnection', {}, /Reconnection test completed/);
  },
};

/** Scenarios this harness does not know get the generic conversation: connect, list, close. */
const GENERIC: Step = SCENARIOS.initialize!;

/**
 * Accepts every elicitation with no content at all, so the values the server sees are exactly the
 * defaults Toolgate fills in (it declares `elicitation.form.applyDefaults`).
 */
function acceptWithDefaults(ctx: ScenarioContext): ElicitationHandler {
  return async (request, context) => {
    ctx.elicitations++;
    ctx.log(`elicitation from ${context.serverId}: ${request.message}`);
    return { action: 'accept', content: {} };
  };
}

/** Watches the client's fetches so a scenario can wait for the GET stream without timing guesses. */
function observingFetch(onServerStream: () => void): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (
      method === 'GET' &&
      response.ok &&
      response.headers.get('content-type')?.includes('text/event-stream')
    )
      onServerStream();
    return response;
  };
}

async function runScenario(url: string, scenario: string): Promise<ScenarioOutcome> {
  const log: string[] = [];
  const started = performance.now();
  const note = (line: string) => log.push(`+${Math.round(performance.now() - started)}ms ${line}`);
  let markStreamOpen: () => void = () => undefined;
  const serverStreamOpen = new Promise<void>((resolve) => {
    markStreamOpen = resolve;
  });
  const ctx: ScenarioContext = {
    log: note,
    serverStreamOpen,
    elicitations: 0,
    connectOptions: {},
  };
  ctx.connectOptions = {
    url,
    fetch: observingFetch(() => markStreamOpen()),
    onWarning: (warning: ClientWarning) => note(`warning [${warning.code}] ${warning.message}`),
    ...(scenario === 'elicitation-sep1034-client-defaults' ? { onElicit: acceptWithDefaults(ctx) } : {}),
  };
  const step = SCENARIOS[scenario];
  if (!step) note(`unknown scenario "${scenario}": running the generic connect, list, close`);
  try {
    await withDeadline((step ?? GENERIC)(ctx), SCENARIO_DEADLINE_MS, `scenario ${scenario}`);
    return { ok: true, scenario, log };
  } catch (error) {
    note(`failed: ${describeError(error)}`);
    return { ok: false, scenario, log, error: describeError(error) };
  } finally {
    // A failed close matters less than the scenario's own outcome, but must still be visible.
    await ctx.client
      ?.close()
      .then(() => note('closed'))
      .catch((error: unknown) => note(`close failed: ${describeError(error)}`));
  }
}

function serverName(client: McpClient): string {
  const info = client.serverInfo;
  return info ? `${info.name} ${info.version}` : '(no serverInfo)';
}

function textOf(result: CallToolResult): string {
  return result.content
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join(' ')
    .trim();
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

window.runScenario = runScenario;
