/**
 * The skills hub against a real SDK 2.x skills server (e2e/peers/skills-server.mjs), over HTTP: what
 * is read and when (the server records every resources/read), approvals bound to the manifest, a
 * manifest that changes, a file whose bytes do not match its digest, nested skills, and two servers
 * serving the same URIs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Peer, startPeer } from '../../e2e/support/peers.js';
import { MemoryAuditSink, memorySettingsStore } from '../gate/index.js';
import { connect, type McpClient } from '../index.js';
import { SkillNotApprovedError, SkillsHub } from './hub.js';
import { SkillVerificationError } from './verify.js';

const PERSON = { kind: 'person' } as const;
const MODEL = { kind: 'host', label: 'the assistant' } as const;
const PDF = 'skill://pdf-processing/SKILL.md';
const REFUNDS = 'skill://acme/billing/refunds/SKILL.md';
const ESCALATION = 'skill://acme/billing/refunds/escalation/SKILL.md';
const TAMPERED = 'skill://tampered/SKILL.md';

let peer: Peer;
let clients: Map<string, McpClient>;
let hub: SkillsHub;
let audit: MemoryAuditSink;

beforeAll(async () => {
  peer = await startPeer('skills');
});
afterAll(async () => {
  await peer?.stop();
});

async function readsSoFar(): Promise<string[]> {
  return (await peer.events()).reads ?? [];
}

beforeEach(async () => {
  for (const client of clients?.values() ?? []) await client.close();
  clients = new Map([['docs', await connect({ url: peer.url, id: 'docs' })]]);
  audit = new MemoryAuditSink();
  hub = new SkillsHub({
    clientOf: (id) => clients.get(id),
    servers: () => [...clients.keys()].map((id) => ({ id, label: `label ${id}` })),
    store: memorySettingsStore(),
    audit,
  });
  return async () => {
    for (const client of clients.values()) await client.close();
  };
});

describe('the skills hub against an SDK 2.x skills server', () => {
  it('lists entries, links nested skills, and reads nothing on listing or approval', async () => {
    const before = (await readsSoFar()).length;
    const server = await hub.refresh('docs');
    expect(server).toMatchObject({ declared: true, directoryRead: true, status: 'listed', complete: true });
    const uris = server.skills.map((record) => record.identity.uri);
    expect(uris).toEqual(expect.arrayContaining([PDF, REFUNDS, ESCALATION, TAMPERED]));
    const refunds = server.skills.find((record) => record.identity.uri === REFUNDS)!;
    const escalation = server.skills.find((record) => record.identity.uri === ESCALATION)!;
    expect(refunds.nested).toEqual([ESCALATION]);
    expect(escalation.enclosing).toBe(REFUNDS);
    expect(refunds.qualifiedName).toBe('docs::acme/billing/refunds');
    await hub.approve('docs', PDF, { allowedTools: false });
    expect((await readsSoFar()).length).toBe(before);
  });

  it('loads only an approved skill, then reads listed files verified, and nothing outside the manifest', async () => {
    await hub.refresh('docs');
    const before = (await readsSoFar()).length;
    await expect(hub.load('docs', PDF, { caller: MODEL })).rejects.toThrow(SkillNotApprovedError);
    expect((await readsSoFar()).length).toBe(before);
    expect(audit.entries.at(-1)?.refusal).toMatchObject({
      toolName: 'skills/load',
      outcome: 'denied',
      // A code in the code, the sentence in the reason.
      decision: {
        source: { kind: 'default', reason: 'not-approved' },
        reason: 'the skill has no current approval',
      },
    });

    await hub.approve('docs', PDF, { allowedTools: false });
    expect(audit.entries.at(-1)?.pending).toMatchObject({
      toolName: 'skills/approve',
      decision: { source: { kind: 'default', reason: 'person-action' } },
    });
    const loaded = await hub.load('docs', PDF, { caller: MODEL });
    expect(loaded).toMatchObject({
      name: 'pdf-processing',
      serverLabel: 'label docs',
      qualifiedName: 'docs::pdf-processing',
    });
    expect(loaded.body).toContain('# PDF processing');
    expect(loaded.files).toEqual(['references/FORMS.md', 'templates/invoice.md']);
    // allowed-tools is in the frontmatter, but was not granted: ignored.
    expect(loaded.allowedTools).toBeUndefined();
    const forms = await hub.readFile('docs', PDF, 'references/FORMS.md', { caller: MODEL });
    expect(forms.text).toContain('never sign for the user');
    await expect(hub.readFile('docs', PDF, 'references/NEW.md', { caller: MODEL })).rejects.toThrow(
      SkillVerificationError,
    );
    await expect(hub.readFile('docs', PDF, '../tampered/SKILL.md', { caller: MODEL })).rejects.toThrow(
      SkillVerificationError,
    );
    expect((await readsSoFar()).slice(before)).toEqual([PDF, 'skill://pdf-processing/references/FORMS.md']);
    const actions = audit.entries.map(
      (entry) =>
        `${(entry.pending ?? entry.refusal)?.toolName}:${entry.final?.outcome ?? entry.refusal?.outcome}`,
    );
    expect(actions).toEqual([
      'skills/load:denied',
      'skills/approve:success',
      'skills/load:success',
      'skills/read:success',
      'skills/read:denied',
      'skills/read:denied',
    ]);
  });

  it('gives allowed-tools effect only when the person granted it for that skill', async () => {
    await hub.refresh('docs');
    await hub.approve('docs', PDF, { allowedTools: true });
    expect((await hub.load('docs', PDF, { caller: MODEL })).allowedTools).toBe('Bash(pdftotext:*) Read');
  });

  it('approving the enclosing skill does not approve the nested one', async () => {
    await hub.refresh('docs');
    await hub.approve('docs', REFUNDS, { allowedTools: true });
    const loaded = await hub.load('docs', REFUNDS, { caller: MODEL });
    // The nested SKILL.md is an ordinary supporting file of the enclosing skill.
    expect(loaded.files).toContain('escalation/SKILL.md');
    await expect(hub.load('docs', ESCALATION, { caller: MODEL })).rejects.toThrow(SkillNotApprovedError);
    expect(hub.offered().map((record) => record.identity.uri)).toEqual([REFUNDS]);
  });

  it('refuses a file whose bytes do not match its digest, and says so on the skill and in the log', async () => {
    await hub.refresh('docs');
    await hub.approve('docs', TAMPERED, { allowedTools: false });
    await hub.load('docs', TAMPERED, { caller: MODEL });
    const failure = await hub
      .readFile('docs', TAMPERED, 'references/notes.md', { caller: MODEL })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SkillVerificationError);
    expect((failure as SkillVerificationError).reason).toBe('size');
    const record = hub.snapshot()[0]!.skills.find((skill) => skill.identity.uri === TAMPERED)!;
    expect(record.failure).toContain('failed verification');
    expect(record.acting).toBe(false);
    expect(audit.entries.at(-1)?.final).toMatchObject({
      outcome: 'invalid-output',
      error: { kind: 'skill-verification' },
    });
  });

  it('a changed manifest revokes the approval with a diff, ends the acting window, and needs a new approval', async () => {
    await hub.refresh('docs');
    await hub.approve('docs', PDF, { allowedTools: false });
    await hub.load('docs', PDF, { caller: MODEL });
    await peer.control('change-manifest');
    const server = await hub.refresh('docs');
    const record = server.skills.find((skill) => skill.identity.uri === PDF)!;
    expect(record.approval.state).toBe('changed');
    expect(record.approval.state === 'changed' && record.approval.changes.map((line) => line.field)).toEqual([
      'file references/FORMS.md',
    ]);
    expect(record.acting).toBe(false);
    expect(hub.offered().map((skill) => skill.identity.uri)).not.toContain(PDF);
    await expect(hub.readFile('docs', PDF, 'references/FORMS.md', { caller: MODEL })).rejects.toThrow(
      SkillNotApprovedError,
    );
    await expect(hub.load('docs', PDF, { caller: MODEL })).rejects.toThrow('changed since it was approved');
    await hub.approve('docs', PDF, { allowedTools: false });
    await hub.load('docs', PDF, { caller: MODEL });
    expect((await hub.readFile('docs', PDF, 'references/FORMS.md', { caller: MODEL })).text).toContain(
      'Revised',
    );
  });

  it('keeps two servers serving the same URIs apart: identity, names, approvals', async () => {
    clients.set('mirror', await connect({ url: peer.url, id: 'mirror' }));
    await hub.refresh('docs');
    await hub.refresh('mirror');
    await hub.approve('docs', REFUNDS, { allowedTools: false });
    const [docs, mirror] = hub.snapshot();
    const a = docs!.skills.find((skill) => skill.identity.uri === REFUNDS)!;
    const b = mirror!.skills.find((skill) => skill.identity.uri === REFUNDS)!;
    expect(a.qualifiedName).not.toBe(b.qualifiedName);
    expect(hub.byQualifiedName(b.qualifiedName)?.identity.serverId).toBe('mirror');
    expect(a.approval.state).toBe('approved');
    expect(b.approval.state).toBe('unapproved');
    expect(a.sameNameElsewhere).toEqual(['label mirror (mirror)']);
    await expect(hub.load('mirror', REFUNDS, { caller: MODEL })).rejects.toThrow(SkillNotApprovedError);
  });

  it('answers directories from the manifest; a live read shows what the manifest lacks', async () => {
    await hub.refresh('docs');
    await hub.approve('docs', PDF, { allowedTools: false });
    await hub.load('docs', PDF, { caller: PERSON });
    const listing = await hub.directory('docs', PDF, 'templates');
    expect(listing).toEqual({ files: ['templates/invoice.md'], notInManifest: [] });
  });
});
