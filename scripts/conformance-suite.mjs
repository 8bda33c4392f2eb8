#!/usr/bin/env node
/**
 * `npm run test:conformance`: runs the official MCP conformance scenarios that apply to Toolgate's
 * client, one at a time (the runner's parallel mode times out on 2 cores), through the documented
 * client command (`npm run -s conformance:client -- <url>`, which runs the client inside headless
 * Chromium). Three sets:
 *   - the 0.1.16 suite's client scenarios (the last stable release);
 *   - 0.2.0-alpha.12 `--requirements 2025-11-25` and `--requirements 2026-07-28`: exactly what each
 *     revision requires, frozen at its release, read from the runner itself (plus the client
 *     scenarios it lists as added after the release), authorization scenarios included (issue 15):
 *     each passes on the checks that prove it happened for the right reason (AUTH_REQUIRED), and
 *     so do the auth extension scenarios the runner lists as "run and reported, never scored"
 *     (client credentials, workload identity, enterprise-managed authorization, DPoP:
 *     AUTH_EXTENSIONS, run with --force); an authorization scenario without such a list (one a
 *     later runner adds) is counted as not run, never as passed;
 *   - the 2025-03-26 authorization back-compat scenarios (`auth/2025-03-26-*`).
 *
 * The runner's exit code alone is not trusted: a client that never connects passes `initialize`
 * with 0/0 checks. So each scenario passes only when the runner and the client exit 0, no check is
 * FAILURE or WARNING, and the checks that prove the scenario actually happened are present and
 * SUCCESS (a scenario this file does not know needs at least one SUCCESS). A failed scenario is
 * retried once, because `sse-retry` measures a 500 ms reconnection delay that a loaded machine can
 * stretch; the output says when that happened.
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI_STABLE = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** 0.2.0-alpha.12, installed under an alias beside the stable release (package.json). */
const CLI_NEXT = join(root, 'node_modules', 'conformance-next', 'dist', 'index.js');
const OUTPUT_DIR = join(root, 'conformance-results');
const CLIENT_COMMAND = 'npm run -s conformance:client --';
/** The runner's per-client timeout; the client command gives up by itself a little earlier. */
const CLIENT_TIMEOUT_MS = 30_000;
/** Our own limit on one runner invocation, in case the runner itself hangs. */
const RUN_LIMIT_MS = 90_000;

const SSE_RETRY = ['client-sse-graceful-reconnect', 'client-sse-retry-timing', 'client-sse-last-event-id'];
const ELICITATION_DEFAULTS = ['string', 'integer', 'number', 'enum', 'boolean'].map(
  (kind) => `client-elicitation-sep1034-${kind}-default`,
);
const SCHEMA_PRESERVED = [
  'json-schema-2020-12-client-tool-found',
  'json-schema-2020-12-client-echo-completed',
  'json-schema-2020-12-client-$schema-preserved',
  'json-schema-2020-12-client-$defs-preserved',
  'json-schema-2020-12-client-additionalProperties-preserved',
];

/**
 * Authorization scenarios (issue 15): the checks that prove each happened for the right reason.
 * A scenario that must be refused (resource mismatch, a wrong or missing `iss`, poisoned metadata,
 * an endless step-up) passes on its own check, which the runner makes SUCCESS only when the client
 * stopped at the right point; a sign-in that works must also end with a bearer token the server
 * accepted. The auth extension scenarios (AUTH_EXTENSIONS) are listed by the runner as "run and
 * reported, but never scored"; here they pass on their own checks like the others. An `auth/*`
 * scenario not listed here is NOT RUN, never counted as passed.
 */
const SIGNED_IN = ['token-request', 'pkce-verifier-matches-challenge', 'valid-bearer-token'];
const RESOURCE_SENT = ['resource-parameter-in-authorization', 'resource-parameter-in-token'];
const METADATA_FLOW = [
  'authorization-server-metadata',
  'client-registration',
  'authorization-request',
  ...SIGNED_IN,
  ...RESOURCE_SENT,
  'resource-parameter-matches-prm',
];
const TOKEN_AUTH = ['token-endpoint-auth-method', ...SIGNED_IN, 'resource-parameter-matches-prm'];
const AUTH_REQUIRED = {
  'auth/metadata-default': ['prm-pathbased-requested', ...METADATA_FLOW],
  'auth/metadata-var1': ['prm-pathbased-requested', ...METADATA_FLOW],
  'auth/metadata-var2': METADATA_FLOW,
  'auth/metadata-var3': METADATA_FLOW,
  'auth/basic-cimd': ['cimd-client-id-used', ...SIGNED_IN],
  'auth/scope-from-www-authenticate': ['scope-from-www-authenticate', ...SIGNED_IN],
  'auth/scope-from-scopes-supported': ['scope-from-scopes-supported', ...SIGNED_IN],
  'auth/scope-omitted-when-undefined': ['scope-omitted-when-undefined', ...SIGNED_IN],
  'auth/scope-step-up': ['scope-step-up-initial', 'scope-step-up-escalation', ...SIGNED_IN],
  'auth/scope-retry-limit': ['scope-retry-limit'],
  'auth/token-endpoint-auth-basic': TOKEN_AUTH,
  'auth/token-endpoint-auth-post': TOKEN_AUTH,
  'auth/token-endpoint-auth-none': TOKEN_AUTH,
  'auth/pre-registration': ['pre-registration-auth', ...SIGNED_IN],
};
const AUTH_REQUIRED_2026 = {
  ...AUTH_REQUIRED,
  'auth/scope-step-up': [...AUTH_REQUIRED['auth/scope-step-up'], 'sep-2350-scope-union-on-reauth'],
  'auth/resource-mismatch': ['resource-mismatch-rejected'],
  'auth/offline-access-scope': ['sep-2207-offline-access-requested', ...SIGNED_IN],
  'auth/offline-access-not-supported': ['sep-2207-offline-access-not-requested', ...SIGNED_IN],
  'auth/authorization-server-migration': [
    'sep-2352-reregister-on-as-change',
    'sep-2352-no-reuse-on-as-change',
    'sep-2352-no-cross-as-credential-reuse',
    ...SIGNED_IN,
  ],
  'auth/iss-supported': ['sep-2468-client-compare-iss-supported', ...SIGNED_IN],
  'auth/iss-not-advertised': ['sep-2468-client-proceed-no-iss', ...SIGNED_IN],
  'auth/iss-supported-missing': ['sep-2468-client-reject-missing-iss'],
  'auth/iss-wrong-issuer': ['sep-2468-client-compare-iss-supported'],
  'auth/iss-unexpected': ['sep-2468-client-compare-iss-unadvertised'],
  'auth/iss-normalized': ['sep-2468-client-no-normalization'],
  'auth/metadata-issuer-mismatch': ['sep-2468-client-validate-metadata-issuer'],
};
/**
 * The auth extensions (shared/spec/extensions/auth): a host app signing in as itself, with a
 * signed JWT (the runner verifies it against the scenario's key: iss, sub, aud) or a secret, with
 * a workload identity token, or with an ID-JAG from the enterprise identity provider (token
 * exchange there, then the JWT bearer grant); and DPoP: a valid proof at the token request, the
 * DPoP scheme and a fresh well-formed proof (method, URL, `ath`, key thumbprint = the token's
 * cnf.jkt) on every MCP request, and with nonces, the retried token and MCP requests carrying them.
 * Each also ends with the server accepting the token (valid-bearer-token, or the DPoP checks).
 */
const DPOP_BOUND = [
  'token-request',
  'pkce-verifier-matches-challenge',
  'sep-1932-client-token-request-proof',
  'sep-1932-client-dpop-auth-scheme',
  'sep-1932-client-fresh-proof',
];
const AUTH_EXTENSIONS = {
  'auth/client-credentials-jwt': ['token-request', 'client-credentials-jwt-verified', 'valid-bearer-token'],
  'auth/client-credentials-basic': ['token-request', 'client-credentials-basic-auth', 'valid-bearer-token'],
  'auth/wif-jwt-bearer': ['token-request', 'wif-assertion-verified', 'valid-bearer-token'],
  'auth/enterprise-managed-authorization': [
    'complete-flow-token-exchange',
    'complete-flow-jwt-bearer',
    'valid-bearer-token',
  ],
  'auth/dpop': DPOP_BOUND,
  'auth/dpop-nonce': [...DPOP_BOUND, 'sep-1932-client-as-nonce', 'sep-1932-client-rs-nonce'],
};
/** 2025-03-26 servers publish no PRM: metadata at their own origin, or the default endpoints. */
const AUTH_REQUIRED_2025_03_26 = {
  'auth/2025-03-26-oauth-metadata-backcompat': [
    'authorization-server-metadata',
    'client-registration',
    'authorization-request',
    ...SIGNED_IN,
  ],
  'auth/2025-03-26-oauth-endpoint-fallback': [
    'client-registration',
    'authorization-request',
    'token-request',
    'valid-bearer-token',
  ],
};

/**
 * Scenario -> check ids that must be present and SUCCESS (their absence means nothing was tested),
 * per set. Checks a revision does not apply come back SKIPPED and are not required there.
 */
const REQUIRED = {
  stable: {
    initialize: ['mcp-client-initialization'],
    tools_call: ['tool-add-numbers'],
    'elicitation-sep1034-client-defaults': ELICITATION_DEFAULTS,
    'sse-retry': SSE_RETRY,
  },
  '2025-11-25': {
    initialize: ['mcp-client-initialization'],
    tools_call: ['tool-add-numbers'],
    'elicitation-sep1034-client-defaults': ELICITATION_DEFAULTS,
    'sse-retry': SSE_RETRY,
    'json-schema-2020-12-preservation': SCHEMA_PRESERVED,
    ...AUTH_REQUIRED,
    ...AUTH_EXTENSIONS,
  },
  '2025-03-26': AUTH_REQUIRED_2025_03_26,
  '2026-07-28': {
    ...AUTH_REQUIRED_2026,
    ...AUTH_EXTENSIONS,
    tools_call: ['tool-add-numbers'],
    'request-metadata': [
      'sep-2575-http-client-sends-version-header',
      'sep-2575-client-populates-meta',
      'sep-2575-client-sends-client-info',
      'sep-2575-http-version-header-matches-meta',
      'sep-2575-client-retry-supported-version',
    ],
    'sep-2322-client-request-state': [
      'sep-2322-client-request-state-echoed',
      'sep-2322-client-jsonrpc-id-different',
      'sep-2322-client-no-state-omitted',
      'sep-2322-client-parallel-isolation',
      'sep-2322-default-result-type-complete',
    ],
    'http-standard-headers': ['sep-2243-client-includes-standard-headers'],
    'http-custom-headers': [
      'sep-2243-client-supports-custom-headers',
      'sep-2243-client-mirrors-designated-params',
      'sep-2243-client-encode-values',
      'sep-2243-client-base64-unsafe',
      'sep-2243-client-omit-null',
    ],
    'http-invalid-tool-headers': ['sep-2243-client-reject-invalid-tool'],
    'json-schema-ref-no-deref': ['sep-2106-no-network-ref-deref'],
    'json-schema-2020-12-preservation': [
      ...SCHEMA_PRESERVED,
      'sep-2106-client-composition-keywords-preserved',
      'sep-2106-client-conditional-keywords-preserved',
      'sep-2106-client-anchor-keyword-preserved',
    ],
  },
  /** The Skills extension (SEP-2640): extension scenarios, in no requirement list, run at 2026-07-28. */
  skills: {
    'sep-2640-client-no-prefetch': ['sep-2640-host-no-prefetch'],
    'sep-2640-client-verify-digest': ['sep-2640-host-verify-digest'],
    'sep-2640-client-verify-size': ['sep-2640-host-size-mismatch-failure'],
    'sep-2640-client-verify-frontmatter': ['sep-2640-host-frontmatter-comparison'],
  },
};

/** The client scenarios a revision requires, as the runner lists them (`list --requirements`). */
function requiredClientScenarios(node, revision) {
  const listed = spawnSync(node, [CLI_NEXT, 'list', '--client', '--requirements', revision], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`conformance list failed: ${listed.stderr || listed.stdout}`);
  const text = listed.stdout.replace(ANSI_COLOUR, '');
  const section = text.slice(text.indexOf('Client scenarios'));
  const required = [];
  for (const line of section.split('\n').slice(1)) {
    if (/^\S/.test(line)) break;
    const match = /^\s+- (\S+)$/.exec(line);
    if (match) required.push(match[1]);
  }
  // Client scenarios added after the release are reported but not scored by the runner; we run them.
  const later = [...text.matchAll(/^\s+- (\S+) \[client\]$/gm)].map((match) => match[1]);
  if (required.length === 0) throw new Error(`conformance list named no client scenarios for ${revision}`);
  return [...required, ...later];
}

/** The client scenarios the runner tags with a revision in `list --client` (2025-03-26 has no frozen set). */
function taggedClientScenarios(node, revision) {
  const listed = spawnSync(node, [CLI_NEXT, 'list', '--client'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`conformance list failed: ${listed.stderr || listed.stdout}`);
  const text = listed.stdout.replace(ANSI_COLOUR, '');
  const tagged = [...text.matchAll(/^\s+- (\S+) \[([^\]]+)\]$/gm)]
    .filter((match) => match[2].split(',').includes(revision))
    .map((match) => match[1]);
  if (tagged.length === 0) throw new Error(`conformance list tagged no client scenario with ${revision}`);
  return tagged;
}

/**
 * The conformance CLI needs Node >= 22 (fs.globSync), and this suite imports TypeScript helpers
 * (type stripping, on by default from 22.18). npm scripts run the Node that `npm ci` installed for
 * this platform through the scripts/node22 workspace (node-<os>-<cpu>, ahead of the system Node on
 * PATH); where no such package exists (macOS on Apple silicon) the system Node must be new enough.
 */
function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 18)) return process.execPath;
  console.error(
    `The conformance suite needs Node 22.18 or later; this is ${process.version} (${process.platform}-${process.arch}).\n` +
      'On this platform npm installs no Node for it: install Node 22 or later (https://nodejs.org, or `nvm install 22`)\n' +
      'and run `npm test` again. Everything else (npm start, lint, unit and browser tests) works with Node 20.19.',
  );
  process.exit(1);
}

/** Runs the CLI for one scenario; resolves with its exit code, output and results directory. */
function runCli(node, set, scenario, env) {
  return new Promise((resolveRun) => {
    const args = [set.cli, 'client', '--command', CLIENT_COMMAND, '--scenario', scenario];
    if (set.revision) args.push('--spec-version', set.revision);
    // Extension scenarios are on no revision's timeline: the runner skips them unless forced.
    if (set.force || Object.hasOwn(AUTH_EXTENSIONS, scenario)) args.push('--force');
    args.push('--timeout', String(CLIENT_TIMEOUT_MS), '-o', set.outputDir);
    const child = spawn(node, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const limit = setTimeout(() => {
      output += `\n[suite] the runner did not finish within ${RUN_LIMIT_MS} ms; killed it\n`;
      child.kill('SIGKILL');
    }, RUN_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      const saved = /Results saved to (.+)$/m.exec(output)?.[1]?.trim();
      resolveRun({
        code: code ?? (signal ? 1 : 0),
        output,
        resultDir: saved ?? newestResultDir(set.outputDir, scenario),
      });
    });
    child.on('error', (error) => {
      clearTimeout(limit);
      resolveRun({ code: 1, output: `${output}\n${error.message}`, resultDir: undefined });
    });
  });
}

/** Fallback when the runner's "Results saved to" line is missing: its newest directory for the scenario. */
function newestResultDir(outputDir, scenario) {
  if (!existsSync(outputDir)) return undefined;
  const pattern = new RegExp(`^${scenario.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d{4}-`);
  const matches = readdirSync(outputDir)
    .filter((name) => pattern.test(name))
    .sort();
  return matches.length ? join(outputDir, matches.at(-1)) : undefined;
}

/** Judges one run: returns { ok, summary, problems }. */
function judge(set, scenario, run) {
  const problems = [];
  let checks = [];
  const file = run.resultDir && join(run.resultDir, 'checks.json');
  if (!file || !existsSync(file)) problems.push('no checks.json was written');
  else {
    try {
      checks = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`checks.json is not JSON: ${error.message}`);
    }
  }
  if (run.code !== 0) problems.push(`the runner exited with ${run.code}`);
  if (/CLIENT TIMED OUT/.test(run.output)) problems.push('the client timed out');
  for (const check of checks)
    if (check.status === 'FAILURE' || check.status === 'WARNING')
      problems.push(`${check.id} ${check.status}${check.errorMessage ? `: ${check.errorMessage}` : ''}`);
  const ids = REQUIRED[set.requiredKey][scenario];
  if (!ids && !checks.some((check) => check.status === 'SUCCESS'))
    problems.push('no check succeeded (a scenario whose checks did not run is not a pass)');
  const required = (ids ?? []).map((id) => {
    const matching = checks.filter((candidate) => candidate.id === id);
    // An id the runner emits per method may be SKIPPED for methods a revision no longer has (no
    // initialize in 2026-07-28); at least one must have succeeded and none failed.
    const allSucceeded =
      matching.some((check) => check.status === 'SUCCESS') &&
      matching.every((check) => check.status === 'SUCCESS' || check.status === 'SKIPPED');
    if (matching.length === 0) problems.push(`${id} missing`);
    else if (!allSucceeded)
      problems.push(`${id} is ${matching.map((check) => check.status).join(', ')}, not SUCCESS`);
    return { id, status: matching.length === 0 ? 'MISSING' : allSucceeded ? 'SUCCESS' : 'NOT SUCCESS' };
  });
  const scored = checks.filter((check) => check.status === 'SUCCESS' || check.status === 'FAILURE');
  const passed = scored.filter((check) => check.status === 'SUCCESS').length;
  const requiredPassed = required.filter((check) => check.status === 'SUCCESS').length;
  const named =
    required.length === 0
      ? 'not known here: any SUCCESS and no failure'
      : required.length === 1
        ? `${required[0].id} ${required[0].status}`
        : `${requiredPassed}/${required.length} required checks SUCCESS`;
  // How close the reconnection came to the server's 500 ms retry: the number to watch under load.
  const delay = checks.find((check) => check.id === 'client-sse-retry-timing')?.details?.actualDelayMs;
  const timing = delay === undefined ? '' : `, reconnected after ${delay} ms`;
  return {
    ok: problems.length === 0,
    summary: `${passed}/${scored.length} checks (${named}${timing})`,
    problems,
  };
}

/** Builds the page harness once so each scenario's client skips its own Vite build. */
async function prebuildHarness() {
  const { bundle } = await import('../e2e/support/bundle.ts');
  const file = join(OUTPUT_DIR, '.harness.js');
  writeFileSync(file, await bundle(join(root, 'e2e', 'conformance', 'harness.ts')));
  return file;
}

/**
 * `--only <regex>`: run just the scenarios whose name matches (while working on one area); the
 * summary says how many were left out, and such a run is never the suite's verdict.
 */
const ONLY = (() => {
  const at = process.argv.indexOf('--only');
  return at === -1 ? undefined : new RegExp(process.argv[at + 1] ?? '');
})();

async function main() {
  const suiteStarted = performance.now();
  const node = checkNode();
  rmSync(OUTPUT_DIR, { recursive: true, force: true });
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const env = { ...process.env };
  try {
    env.TOOLGATE_CONFORMANCE_BUNDLE = await prebuildHarness();
  } catch (error) {
    // Each client then bundles for itself and reports the same error where it belongs.
    console.log(`[suite] could not prebuild the harness (${error.message}); each client will bundle it`);
  }

  const sets = [
    {
      label: 'suite 0.1.16',
      cli: CLI_STABLE,
      requiredKey: 'stable',
      scenarios: Object.keys(REQUIRED.stable),
    },
    ...['2025-11-25', '2026-07-28'].map((revision) => ({
      label: `suite 0.2.0-alpha.12, required for ${revision}`,
      cli: CLI_NEXT,
      revision,
      requiredKey: revision,
      scenarios: requiredClientScenarios(node, revision),
    })),
    {
      label: 'suite 0.2.0-alpha.12, Skills extension (SEP-2640) at 2026-07-28',
      cli: CLI_NEXT,
      revision: '2026-07-28',
      requiredKey: 'skills',
      force: true,
      scenarios: Object.keys(REQUIRED.skills),
    },
    {
      label: 'suite 0.2.0-alpha.12, 2025-03-26 authorization back-compat',
      cli: CLI_NEXT,
      revision: '2025-03-26',
      requiredKey: '2025-03-26',
      scenarios: taggedClientScenarios(node, '2025-03-26'),
    },
  ];
  let passed = 0;
  let failed = 0;
  let notRun = 0;
  let notSelected = 0;
  for (const set of sets) {
    set.outputDir = join(OUTPUT_DIR, set.revision ?? 'stable');
    mkdirSync(set.outputDir, { recursive: true });
    // Authorization scenarios run once this file knows what proves them; the others are listed.
    const known = REQUIRED[set.requiredKey];
    const unknownAuth = set.scenarios.filter((scenario) => scenario.startsWith('auth/') && !known[scenario]);
    const scenarios = set.scenarios.filter((scenario) => !unknownAuth.includes(scenario));
    console.log(`[suite] ${set.label}: ${scenarios.length} scenarios`);
    if (unknownAuth.length > 0) {
      notRun += unknownAuth.length;
      console.log(
        `[suite] NOT RUN: ${unknownAuth.length} authorization scenarios this suite knows no proving checks for (add them to AUTH_REQUIRED or AUTH_EXTENSIONS once Toolgate implements them): ${unknownAuth.join(', ')}`,
      );
    }
    for (const scenario of scenarios) {
      if (ONLY && !ONLY.test(scenario)) {
        notSelected++;
        continue;
      }
      const started = performance.now();
      let run = await runCli(node, set, scenario, env);
      let verdict = judge(set, scenario, run);
      let note = '';
      if (!verdict.ok) {
        const why = scenario === 'sse-retry' ? ' (its 500 ms reconnection timing is sensitive to load)' : '';
        console.log(`[suite] ${scenario} failed (${verdict.problems.join('; ')}); retrying once${why}`);
        console.log(indent(run.output));
        const first = verdict;
        run = await runCli(node, set, scenario, env);
        verdict = judge(set, scenario, run);
        note = verdict.ok
          ? ` [passed on retry; first attempt: ${first.problems.join('; ')}]`
          : ' [failed twice]';
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const where = set.revision ? ` @${set.revision}` : '';
      console.log(
        `${verdict.ok ? 'PASS' : 'FAIL'} ${scenario}${where}: ${verdict.summary} in ${seconds}s${note}`,
      );
      if (verdict.ok) passed++;
      else {
        failed++;
        for (const problem of verdict.problems) console.log(`  - ${problem}`);
        console.log(indent(run.output));
      }
    }
  }
  const total = ((performance.now() - suiteStarted) / 1000).toFixed(1);
  console.log(`[suite] results in ${OUTPUT_DIR}; ${total}s in all`);
  console.log(`${passed} passed, ${failed} failed, ${notRun} authorization scenarios not run`);
  if (ONLY) {
    console.log(
      `[suite] --only ${ONLY.source}: ${notSelected} scenarios left out; this is not the suite's verdict`,
    );
  }
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

/** The runner colours its check list; escape codes only clutter a CI log. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function indent(text) {
  return text
    .replace(ANSI_COLOUR, '')
    .trimEnd()
    .split('\n')
    .map((line) => `    | ${line}`)
    .join('\n');
}

main().catch((error) => {
  console.error(`[suite] ${error?.stack ?? error}`);
  console.log('the conformance suite did not run to the end');
  process.exit(1);
});
