/** Forgetting a server's or a caller's settings (forget.ts), on a real policy over memory settings. */
import { describe, expect, it } from 'vitest';
import type { Tool } from '../protocol/index.js';
import { forgetCallerGrants, forgetServer } from './forget.js';
import { pinTool } from './pins.js';
import { createPolicy } from './policy.js';
import { memorySettingsStore } from './settings-store.js';
import type { Caller } from './types.js';

const HOST: Caller = { kind: 'host', label: 'the assistant' };
const SITE: Caller = { kind: 'site', label: 'https://a.example' };
const OTHER_SITE: Caller = { kind: 'site', label: 'https://b.example' };
const TOOL: Tool = { name: 'write', inputSchema: { type: 'object' } };
const A = 'https://h.example/mcp?tenant=a';
const B = 'https://h.example/mcp?tenant=b';

async function decide(policy: ReturnType<typeof createPolicy>, caller: Caller, serverId: string) {
  const { decision } = await policy.decide({
    caller,
    pinned: await pinTool(serverId, TOOL),
    serverId,
    arguments: {},
    validation: { status: 'valid', engine: 'cfworker' },
    trust: await policy.trustOf(serverId),
  });
  return decision.verdict;
}

describe('forgetServer', () => {
  it("drops the server's trust, approvals and rules, and nothing of another server's", async () => {
    const policy = createPolicy({ store: memorySettingsStore() });
    for (const server of [A, B]) {
      await policy.setTrust(server, 'trusted');
      await policy.remember(HOST, await pinTool(server, TOOL), 'always');
      await policy.remember(SITE, await pinTool(server, TOOL), 'session');
      await policy.saveRule({ verdict: 'deny', server, tool: 'other' });
    }
    await policy.saveRule({ verdict: 'ask', server: '*', tool: 'write' });
    expect(await forgetServer(policy, A)).toEqual({ trust: true, grants: 2, rules: 1 });
    expect(await policy.trustOf(A)).toBe('untrusted');
    expect(await policy.trustOf(B)).toBe('trusted');
    expect((await policy.listGrants()).map((grant) => grant.serverId)).toEqual([B, B]);
    expect((await policy.listRules()).map((rule) => rule.server).sort()).toEqual(['*', B]);
    expect(await forgetServer(policy, A)).toEqual({ trust: false, grants: 0, rules: 0 });
  });
});

describe('forgetCallerGrants', () => {
  it("revokes one caller's approvals on every server, and nobody else's", async () => {
    const policy = createPolicy({ store: memorySettingsStore() });
    await policy.remember(SITE, await pinTool(A, TOOL), 'always');
    await policy.remember(SITE, await pinTool(B, TOOL), 'session');
    await policy.remember(OTHER_SITE, await pinTool(A, TOOL), 'always');
    expect(await decide(policy, SITE, A)).toBe('allow');
    expect(await forgetCallerGrants(policy, SITE)).toBe(2);
    expect(await decide(policy, SITE, A)).toBe('ask');
    expect(await decide(policy, SITE, B)).toBe('ask');
    expect(await decide(policy, OTHER_SITE, A)).toBe('allow');
  });
});
