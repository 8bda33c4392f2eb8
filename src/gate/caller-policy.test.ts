/**
 * The policy tells callers apart: a remembered approval or an allow rule speaks for the caller it
 * names and nobody else, and a trusted server's read-only claim relaxes only the person's and the
 * host's own calls. Each test here failed on the policy before callers were part of decisions.
 */
import { describe, expect, it } from 'vitest';
import type { Tool } from '../protocol/index.js';
import { pinTool } from './pins.js';
import { createPolicy } from './policy.js';
import type { PolicyDefaults } from './policy-types.js';
import { RuleValidationError } from './rules.js';
import { memorySettingsStore, type SettingsStore } from './settings-store.js';
import type { Caller, TrustLevel } from './types.js';

const PERSON: Caller = { kind: 'person', label: 'you' };
const HOST: Caller = { kind: 'host', label: 'the assistant' };
const SITE_A: Caller = { kind: 'site', label: 'https://a.example' };
const SITE_B: Caller = { kind: 'site', label: 'https://b.example' };
const APP: Caller = { kind: 'mcp-app', label: 'ui://files/browser.html' };
const AGENT: Caller = { kind: 'agent', label: 'https://a.example' };

const readKey: Tool = {
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};
const writeFile: Tool = { name: 'write_file', inputSchema: { type: 'object' } };

function policyWith(options: { store?: SettingsStore; defaults?: Partial<PolicyDefaults> } = {}) {
  return createPolicy({
    store: options.store ?? memorySettingsStore(),
    ...(options.defaults ? { defaults: options.defaults } : {}),
  });
}

async function verdict(
  policy: ReturnType<typeof createPolicy>,
  caller: Caller,
  tool: Tool,
  trust: TrustLevel = 'untrusted',
) {
  const { decision } = await policy.decide({
    caller,
    pinned: await pinTool('files', tool),
    serverId: 'files',
    arguments: { path: '/home/ada/.ssh/id_ed25519' },
    validation: { status: 'valid', engine: 'cfworker' },
    trust,
  });
  return decision;
}

describe('trusted read-only tools', () => {
  it('run unasked for the person and the host, but a web site and an MCP App are asked', async () => {
    const policy = policyWith();
    expect((await verdict(policy, PERSON, readKey, 'trusted')).verdict).toBe('allow');
    expect((await verdict(policy, HOST, readKey, 'trusted')).verdict).toBe('allow');
    const site = await verdict(policy, SITE_A, readKey, 'trusted');
    expect(site).toMatchObject({
      verdict: 'ask',
      source: { kind: 'default', reason: 'caller-must-be-approved' },
    });
    expect(site.reason).toContain('https://a.example');
    expect((await verdict(policy, APP, readKey, 'trusted')).verdict).toBe('ask');
  });

  it('are widened to sites only when the host configures it, and narrowed to asking for everyone', async () => {
    const widened = policyWith({ defaults: { trustedReadOnlyCallers: ['person', 'host', 'site'] } });
    expect((await verdict(widened, SITE_A, readKey, 'trusted')).verdict).toBe('allow');
    expect((await verdict(widened, APP, readKey, 'trusted')).verdict).toBe('ask');
    const strict = policyWith({ defaults: { trustedReadOnly: 'ask' } });
    expect((await verdict(strict, PERSON, readKey, 'trusted')).verdict).toBe('ask');
  });
});

describe('remembered approvals are per caller', () => {
  it("one site's 'always allow' covers neither another site, the host, nor the person", async () => {
    const policy = policyWith();
    await policy.remember(SITE_A, await pinTool('files', writeFile), 'always', 'Ada');
    expect(await verdict(policy, SITE_A, writeFile)).toMatchObject({
      verdict: 'allow',
      source: { kind: 'remembered', scope: 'always' },
    });
    expect((await verdict(policy, SITE_A, writeFile)).reason).toContain('https://a.example');
    expect((await verdict(policy, SITE_B, writeFile)).verdict).toBe('ask');
    expect((await verdict(policy, HOST, writeFile)).verdict).toBe('ask');
    expect((await verdict(policy, PERSON, writeFile)).verdict).toBe('ask');
  });

  it("the person's session approval does not cover a site, and the person is one identity whatever the label", async () => {
    const policy = policyWith();
    await policy.remember(PERSON, await pinTool('files', writeFile), 'session');
    expect((await verdict(policy, { kind: 'person', label: 'Ada' }, writeFile)).verdict).toBe('allow');
    expect((await verdict(policy, SITE_A, writeFile)).verdict).toBe('ask');
    expect((await verdict(policy, APP, writeFile)).verdict).toBe('ask');
  });

  it('keeps one grant per caller and tool, each listed with its caller and revocable alone', async () => {
    const store = memorySettingsStore();
    const policy = policyWith({ store });
    await policy.remember(SITE_A, await pinTool('files', writeFile), 'always');
    await policy.remember(SITE_B, await pinTool('files', writeFile), 'always');
    const grants = await policy.listGrants();
    expect(grants.map((g) => g.caller)).toEqual(expect.arrayContaining([SITE_A, SITE_B]));
    const fresh = policyWith({ store });
    const forA = (await fresh.listGrants()).find((g) => g.caller.label === SITE_A.label)!;
    await fresh.revokeGrant(forA.id);
    expect((await verdict(fresh, SITE_A, writeFile)).verdict).toBe('ask');
    expect((await verdict(fresh, SITE_B, writeFile)).verdict).toBe('allow');
  });

  it("the browser's agent has approvals of its own: neither the person's nor the site's cover it, nor its theirs", async () => {
    const policy = policyWith();
    await policy.remember(PERSON, await pinTool('files', writeFile), 'always');
    await policy.remember(SITE_A, await pinTool('files', writeFile), 'always');
    expect((await verdict(policy, AGENT, writeFile)).verdict).toBe('ask');
    // Nor does a trusted server's read-only claim let it through unasked.
    expect((await verdict(policy, AGENT, readKey, 'trusted')).verdict).toBe('ask');
    const agentOnly = policyWith();
    await agentOnly.remember(AGENT, await pinTool('files', writeFile), 'always');
    expect((await verdict(agentOnly, AGENT, writeFile)).verdict).toBe('allow');
    expect((await verdict(agentOnly, { kind: 'agent', label: 'https://b.example' }, writeFile)).verdict).toBe(
      'ask',
    );
    expect((await verdict(agentOnly, PERSON, writeFile)).verdict).toBe('ask');
    expect((await verdict(agentOnly, SITE_A, writeFile)).verdict).toBe('ask');
    // Stored and read back as the agent's (a fresh read of the grant keeps its caller).
    expect((await agentOnly.listGrants())[0]?.caller).toEqual(AGENT);
  });

  it("an app's 'always allow' is bound to its server: the same ui:// URI from another server is asked", async () => {
    const policy = policyWith();
    const fromFiles: Caller = { kind: 'mcp-app', label: 'ui://app.html', server: 'files' };
    const fromElsewhere: Caller = { kind: 'mcp-app', label: 'ui://app.html', server: 'evil' };
    await policy.remember(fromFiles, await pinTool('files', writeFile), 'always');
    expect((await verdict(policy, fromFiles, writeFile)).verdict).toBe('allow');
    expect((await verdict(policy, fromElsewhere, writeFile)).verdict).toBe('ask');
    // Nor an app caller recorded without a server (as before apps carried theirs).
    expect((await verdict(policy, { kind: 'mcp-app', label: 'ui://app.html' }, writeFile)).verdict).toBe(
      'ask',
    );
    expect((await policy.listGrants())[0]?.caller).toEqual(fromFiles);
  });

  it('reads a grant stored before callers were recorded as the person’s own, never a site’s', async () => {
    const store = memorySettingsStore();
    const pinned = await pinTool('files', writeFile);
    await store.set('grant:files\u0000write_file', {
      id: 'old',
      serverId: 'files',
      toolName: 'write_file',
      definitionHash: pinned.definitionHash,
      definition: writeFile,
      scope: 'always',
      createdAt: 1,
    });
    const policy = policyWith({ store });
    expect((await verdict(policy, PERSON, writeFile)).verdict).toBe('allow');
    expect((await verdict(policy, SITE_A, writeFile)).verdict).toBe('ask');
    expect((await verdict(policy, HOST, writeFile)).verdict).toBe('ask');
    expect((await policy.listGrants())[0]?.caller).toEqual({ kind: 'person' });
  });
});

describe('rules and callers', () => {
  it('an allow rule that names no caller speaks for the person and the host only', async () => {
    const policy = policyWith();
    await policy.saveRule({ verdict: 'allow', server: 'files', tool: 'write_file' });
    expect((await verdict(policy, PERSON, writeFile)).verdict).toBe('allow');
    expect((await verdict(policy, HOST, writeFile)).verdict).toBe('allow');
    expect((await verdict(policy, SITE_A, writeFile)).verdict).toBe('ask');
    expect((await verdict(policy, APP, writeFile)).verdict).toBe('ask');
  });

  it('an allow rule for one site covers that origin exactly; one for every site covers them all', async () => {
    const policy = policyWith();
    await policy.saveRule({ verdict: 'allow', server: 'files', tool: 'write_file', caller: SITE_A });
    const allowed = await verdict(policy, SITE_A, writeFile);
    expect(allowed).toMatchObject({ verdict: 'allow', source: { kind: 'rule' } });
    expect(allowed.reason).toContain('for the web site https://a.example');
    expect(
      (await verdict(policy, { kind: 'site', label: 'https://a.example:8443' }, writeFile)).verdict,
    ).toBe('ask');
    expect((await verdict(policy, SITE_B, writeFile)).verdict).toBe('ask');
    await policy.saveRule({
      verdict: 'allow',
      server: 'files',
      tool: 'write_file',
      caller: { kind: 'site' },
    });
    expect((await verdict(policy, SITE_B, writeFile)).verdict).toBe('allow');
    expect((await verdict(policy, APP, writeFile)).verdict).toBe('ask');
  });

  it('deny and ask rules without a caller reach every caller, and a deny beats a caller-specific allow', async () => {
    const policy = policyWith();
    await policy.saveRule({ verdict: 'allow', server: 'files', tool: 'write_file', caller: SITE_A });
    await policy.saveRule({ verdict: 'deny', server: 'files', tool: '*' });
    expect((await verdict(policy, SITE_A, writeFile)).verdict).toBe('deny');
    expect((await verdict(policy, APP, readKey, 'trusted')).verdict).toBe('deny');
  });

  it('refuses a malformed caller with a readable issue and keeps the person unlabelled', async () => {
    const policy = policyWith();
    await expect(
      policy.saveRule({
        verdict: 'allow',
        server: 'files',
        tool: 'write_file',
        caller: { kind: 'robot' } as unknown as Caller,
      }),
    ).rejects.toBeInstanceOf(RuleValidationError);
    await expect(
      policy.saveRule({ verdict: 'allow', server: 'files', tool: 'x', caller: { kind: 'site', label: ' ' } }),
    ).rejects.toThrow(/caller\.label/);
    const saved = await policy.saveRule({ verdict: 'ask', server: 'files', tool: 'x', caller: PERSON });
    expect(saved.caller).toEqual({ kind: 'person' });
  });
});
