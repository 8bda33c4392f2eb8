/**
 * The Skills extension's conformance scenarios (SEP-2640), acted out with Toolgate's skills room
 * exactly as the panel uses it: list the server's skills, let "the person" approve one (bound to
 * its manifest), then load it through the hub, which reads and verifies SKILL.md. Registered into
 * the harness's scenario table by name (harness.ts).
 *
 * The scenario servers judge what was read; these steps fail loudly when Toolgate itself behaves
 * unexpectedly: a tampered SKILL.md that loads, a failure for the wrong reason, or a record missing
 * from the audit log.
 */

import { memorySettingsStore } from '../../src/gate/settings-store.js';
import { type ConnectOptions, connect, type McpClient, MemoryAuditSink } from '../../src/index.js';
import { SkillsHub } from '../../src/skills/hub.js';
import { SkillVerificationError, type VerificationReason } from '../../src/skills/verify.js';

/** The part of the harness's scenario context these steps use. */
export interface SkillsScenarioContext {
  log: (line: string) => void;
  connectOptions: ConnectOptions;
  /** Set here once connected, so the harness closes it whatever happens. */
  client?: McpClient;
}

type Step = (ctx: SkillsScenarioContext) => Promise<void>;

/** The host-assigned label of the scenario server (never its self-reported name). */
const SERVER_ID = 'scenario';
const PERSON = { kind: 'person' } as const;

async function openHub(ctx: SkillsScenarioContext) {
  const client = await connect({ ...ctx.connectOptions, id: SERVER_ID });
  ctx.client = client;
  ctx.log(`connected: era ${client.era}, protocol ${client.protocolVersion}`);
  const audit = new MemoryAuditSink();
  const hub = new SkillsHub({
    clientOf: (id) => (id === SERVER_ID ? client : undefined),
    servers: () => [{ id: SERVER_ID, label: 'the scenario server' }],
    store: memorySettingsStore(),
    audit,
  });
  const server = await hub.refresh(SERVER_ID);
  if (server.status !== 'listed') throw new Error(`skills/list failed: ${server.error ?? server.status}`);
  ctx.log(`skills/list: ${server.skills.map((record) => record.identity.uri).join(', ') || '(none)'}`);
  for (const rejected of server.rejected)
    ctx.log(`rejected entry ${rejected.uri}: ${rejected.problems.join('; ')}`);
  const skill = server.skills[0];
  if (!skill) throw new Error('the scenario server listed no skill Toolgate could hold');
  return { hub, skill, audit };
}

/** Lists and approves, and reads nothing: neither listing nor approval retrieves a file. */
const noPrefetch: Step = async (ctx) => {
  const { hub, skill, audit } = await openHub(ctx);
  const approved = await hub.approve(SERVER_ID, skill.identity.uri, {
    allowedTools: false,
    decidedBy: 'conformance',
  });
  ctx.log(`approved ${skill.identity.uri}: ${approved.approval.state}, manifest ${approved.manifestDigest}`);
  if (approved.approval.state !== 'approved')
    throw new Error(`approval did not take: ${approved.approval.state}`);
  const reads = audit.entries.filter((entry) => entry.pending?.toolName !== 'skills/approve');
  if (reads.length > 0) throw new Error(`the hub recorded ${reads.length} reads before any load`);
};

/** Approves, then loads: the tampered SKILL.md must fail for `reason`, and nothing else is read. */
function expectFailure(reason: VerificationReason): Step {
  return async (ctx) => {
    const { hub, skill, audit } = await openHub(ctx);
    await hub.approve(SERVER_ID, skill.identity.uri, { allowedTools: false, decidedBy: 'conformance' });
    let failure: unknown;
    try {
      const loaded = await hub.load(SERVER_ID, skill.identity.uri, { caller: PERSON });
      // A host that accepted the file would go on to its supporting files: do so, so the server sees it.
      for (const path of loaded.files)
        await hub.readFile(SERVER_ID, skill.identity.uri, path, { caller: PERSON });
    } catch (error) {
      failure = error;
    }
    if (!(failure instanceof SkillVerificationError))
      throw new Error(
        failure
          ? `the load failed, but not in verification: ${String(failure)}`
          : 'the tampered skill loaded',
      );
    ctx.log(`load refused: ${failure.message}`);
    if (failure.reason !== reason) throw new Error(`expected a ${reason} failure, got ${failure.reason}`);
    const recorded = audit.entries.find(
      (entry) => entry.pending?.toolName === 'skills/load' && entry.final?.outcome === 'invalid-output',
    );
    if (!recorded) throw new Error('the verification failure is not in the audit log');
  };
}

/** Scenario name -> step. */
export const SKILLS_SCENARIOS: Record<string, Step> = {
  'sep-2640-client-no-prefetch': noPrefetch,
  'sep-2640-client-verify-digest': expectFailure('digest'),
  'sep-2640-client-verify-size': expectFailure('size'),
  'sep-2640-client-verify-frontmatter': expectFailure('frontmatter'),
};
