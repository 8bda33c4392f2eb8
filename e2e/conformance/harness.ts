/**
 * Page side of the conformance client command: runs one scenario of the official MCP conformance
 * suite with Toolgate's own client, inside Chromium, against the scenario server (whose origin this
 * page is served from, because scenario servers send no CORS headers).
 *
 * The server side does the judging; this code only drives the client the way each scenario expects
 * and fails loudly when the client itself throws or answers something unexpected.
 */

import { completeSignIn } from '../../src/auth/index.js';
import {
  type CallToolResult,
  type ClientWarning,
  type ConnectOptions,
  connect,
  type ElicitationHandler,
  type McpClient,
  type Tool,
} from '../../src/index.js';
import {
  AUTH_EXPECTATIONS,
  type AuthScenarioData,
  authorizingFetch,
  CALLBACK_PATH,
  runAuthScenario,
} from './auth-harness.js';
import { SKILLS_SCENARIOS } from './skills-steps.js';

/** What runScenario hands back to Node: `log` is printed to stderr for debugging. */
export interface ScenarioOutcome {
  ok: boolean;
  scenario: string;
  log: string[];
  error?: string;
}

declare global {
  interface Window {
    runScenario: (
      url: string,
      scenario: string,
      data?: ScenarioData,
      revision?: string,
    ) => Promise<ScenarioOutcome>;
  }
}

/** The page's own budget; the Node side and the runner (30 s) have longer ones, so this one reports. */
const SCENARIO_DEADLINE_MS = 20_000;

type Step = (ctx: ScenarioContext) => Promise<void>;

/** What the runner passes in MCP_CONFORMANCE_CONTEXT: the calls to make, pre-registered clients. */
export interface ScenarioData extends AuthScenarioData {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

interface ScenarioContext {
  log: (line: string) => void;
  /** Resolves once a GET answered with an event stream (the server-to-client stream is open). */
  serverStreamOpen: Promise<void>;
  connectOptions: ConnectOptions;
  /** Set by `open`, closed by runScenario whatever happens. */
  client?: McpClient;
  elicitations: number;
  data: ScenarioData;
  /** Runs once, the first time an elicitation arrives (before it is answered). */
  duringFirstElicitation?: (() => Promise<void>) | undefined;
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

/** A value for each required property of a tool's input schema, enough for a scenario call. */
function argumentsFor(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const values: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const type = schema.properties?.[name]?.type;
    values[name] =
      type === 'integer' || type === 'number'
        ? 1
        : type === 'boolean'
          ? true
          : type === 'object'
            ? {}
            : type === 'array'
              ? []
              : type === 'null'
                ? null
                : 'conformance';
  }
  return values;
}

async function callAndLog(
  ctx: ScenarioContext,
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
) {
  const result = await client.callTool(name, args);
  ctx.log(`tools/call ${name}: ${result.isError ? 'isError, ' : ''}${textOf(result)}`);
  return result;
}

Object.assign(SCENARIOS, {
  /** SEP-2575: per-request _meta and version header; a rejected first choice is retried. */
  async 'request-metadata'(ctx: ScenarioContext) {
    const client = await open(ctx);
    await listToolNames(ctx, client);
  },

  /** SEP-2322 (multi round-trip requests): every round as the scenario's tools expect. */
  async 'sep-2322-client-request-state'(ctx: ScenarioContext) {
    const client = await open(ctx);
    await listToolNames(ctx, client);
    // Between the rounds of the first tool, an unrelated call: it must carry nothing of that flow.
    ctx.duringFirstElicitation = async () => {
      await callAndLog(ctx, client, 'test_mrtr_unrelated', {});
    };
    const expectations: [string, RegExp][] = [
      ['test_mrtr_echo_state', /echo-state-ok/],
      ['test_mrtr_no_state', /no-state-ok/],
      ['test_mrtr_no_result_type', /no-result-type-test-ok/],
    ];
    for (const [name, expected] of expectations) {
      const result = await callAndLog(ctx, client, name, {});
      if (!expected.test(textOf(result)))
        throw new Error(`${name} answered ${JSON.stringify(textOf(result))}`);
    }
    if (ctx.elicitations !== 2)
      throw new Error(`expected two input requests answered, got ${ctx.elicitations}`);
  },

  /** SEP-2243: Mcp-Method and Mcp-Name on every kind of request the scenario server answers. */
  async 'http-standard-headers'(ctx: ScenarioContext) {
    const client = await open(ctx);
    const tools = await client.listTools();
    ctx.log(`tools/list: ${tools.map((tool) => tool.name).join(', ')}`);
    if (tools[0]) await callAndLog(ctx, client, tools[0].name, argumentsFor(tools[0]));
    const resources = (await client.request('resources/list')) as { resources?: { uri: string }[] };
    const uri = resources.resources?.[0]?.uri;
    ctx.log(`resources/list: ${uri ?? '(none)'}`);
    if (uri) await client.request('resources/read', { uri });
    const prompts = (await client.request('prompts/list')) as { prompts?: { name: string }[] };
    const prompt = prompts.prompts?.[0]?.name;
    ctx.log(`prompts/list: ${prompt ?? '(none)'}`);
    if (prompt) await client.request('prompts/get', { name: prompt, arguments: {} });
  },

  /** SEP-2243: the runner names the calls; designated parameters are mirrored into headers. */
  async 'http-custom-headers'(ctx: ScenarioContext) {
    const client = await open(ctx);
    await listToolNames(ctx, client);
    const calls = ctx.data.toolCalls ?? [];
    if (calls.length === 0) throw new Error('the runner passed no toolCalls in MCP_CONFORMANCE_CONTEXT');
    for (const call of calls) await callAndLog(ctx, client, call.name, call.arguments);
  },

  /** SEP-2243: tools with invalid x-mcp-header are excluded; the valid one stays usable. */
  async 'http-invalid-tool-headers'(ctx: ScenarioContext) {
    const client = await open(ctx);
    const tools = await client.listTools();
    ctx.log(`tools offered: ${tools.map((tool) => tool.name).join(', ')}`);
    // Every tool the client offers is called: an invalid one offered would be caught by the server.
    for (const tool of tools) await callAndLog(ctx, client, tool.name, argumentsFor(tool));
    if (!tools.some((tool) => tool.name === 'valid_tool')) throw new Error('valid_tool was not offered');
  },

  /** SEP-2106: a network $ref is never fetched; listing is what exercises it. */
  async 'json-schema-ref-no-deref'(ctx: ScenarioContext) {
    const client = await open(ctx);
    await listToolNames(ctx, client);
  },

  /** SEP-1613/2106: the input schema as received is echoed back untouched. */
  async 'json-schema-2020-12-preservation'(ctx: ScenarioContext) {
    const client = await open(ctx);
    const tools = await client.listTools();
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('the server did not list json_schema_2020_12_tool');
    await callAndLog(ctx, client, 'json_schema_echo', { schema: focal.inputSchema });
  },
} satisfies Record<string, Step>);

/**
 * Every authorization scenario has the same conversation, through the OAuth fetch: connect, list
 * the tools, call the suite's test-tool (whose call is where auth/scope-step-up asks for more).
 */
for (const scenario of Object.keys(AUTH_EXPECTATIONS))
  SCENARIOS[scenario] = (ctx) =>
    runAuthScenario(
      scenario,
      async () => {
        const client = await open(ctx);
        const names = await listToolNames(ctx, client);
        if (!names.includes('test-tool')) throw new Error('the server did not list test-tool');
        const result = await callAndLog(ctx, client, 'test-tool', {});
        if (result.isError || textOf(result) !== 'test')
          throw new Error(`test-tool answered ${JSON.stringify(textOf(result))}`);
      },
      ctx.log,
    );

Object.assign(SCENARIOS, SKILLS_SCENARIOS);

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

/** Confirms every input request (MRTR scenarios ask for `confirmed: boolean`). */
function confirmEverything(ctx: ScenarioContext): ElicitationHandler {
  return async (request) => {
    ctx.elicitations++;
    ctx.log(`input request: ${request.message}`);
    const during = ctx.duringFirstElicitation;
    ctx.duringFirstElicitation = undefined;
    await during?.();
    return { action: 'accept', content: { confirmed: true } };
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

async function runScenario(
  url: string,
  scenario: string,
  data: ScenarioData = {},
  revision?: string,
): Promise<ScenarioOutcome> {
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
    data,
  };
  if (revision) note(`the run targets revision ${revision}`);
  const observing = observingFetch(() => markStreamOpen());
  ctx.connectOptions = {
    url,
    fetch: scenario.startsWith('auth/') ? authorizingFetch(url, data, observing, note, scenario) : observing,
    onWarning: (warning: ClientWarning) => note(`warning [${warning.code}] ${warning.message}`),
    ...(scenario === 'elicitation-sep1034-client-defaults' ? { onElicit: acceptWithDefaults(ctx) } : {}),
    ...(scenario === 'sep-2322-client-request-state' ? { onElicit: confirmEverything(ctx) } : {}),
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

// The same bundle is the sign-in callback page: there it hands its URL back to the opener.
if (location.pathname === CALLBACK_PATH) completeSignIn();
else window.runScenario = runScenario;
