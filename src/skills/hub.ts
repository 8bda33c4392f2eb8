/**
 * Skills behind the gate: one hub per controller, shared by the panel's Skills view and the host
 * API. It lists what servers publish (entries only: no file is fetched on connect, on listing or at
 * approval), binds the person's approval to each entry's manifest, and is the only path by which a
 * skill is loaded or its files are read: each read is approved, recorded, and verified against the
 * entry held while acting on the skill.
 */

import type { McpClient } from '../client/index.js';
import type { AuditSink, Caller, Decision, SettingsStore } from '../gate/index.js';
import { type ApprovalState, approvalState, SkillApprovalBook } from './approvals.js';
import { type SkillActivity, SkillAuditTrail } from './audit-trail.js';
import { isHeldEntry, type ReadEntry } from './entry.js';
import { readSkillMd, readVerified, VerifiedFileCache } from './loader.js';
import { manifestDigest } from './manifest.js';
import { linkRegistry, type ServerSkills, type SkillRecord } from './registry.js';
import { pathInSkill, resolveInSkill } from './skill-uri.js';
import { identityKey, type SkillEntry, type SkillIdentity } from './types.js';
import { SkillVerificationError, utf8Text } from './verify.js';
import { type DirectoryChild, getSkill, listSkills, readDirectory, skillsCapability } from './wire.js';

/** A skill refused before anything was read: not approved, changed since, or generated. */
export class SkillNotApprovedError extends Error {
  readonly kind = 'skill-not-approved';
  constructor(
    readonly identity: SkillIdentity,
    message: string,
  ) {
    super(message);
    this.name = 'SkillNotApprovedError';
  }
}

/** What the hub needs from its surroundings. */
export interface SkillsHubOptions {
  /** The live connection for a server id (the controller's). */
  clientOf(serverId: string): McpClient | undefined;
  /** The servers the person has, in panel order, with the labels they see. */
  servers(): readonly { id: string; label: string }[];
  store: SettingsStore;
  audit: AuditSink;
  /** Told when a skill action's closing record could not be written. Default: a console warning. */
  onAuditFailure?: (error: unknown) => void;
  now?: () => number;
}

/** A loaded skill: its SKILL.md, verified, and what the model may see of it. */
export interface LoadedSkill {
  identity: SkillIdentity;
  qualifiedName: string;
  serverLabel: string;
  name: string;
  description: string;
  /** The whole SKILL.md. */
  text: string;
  /** The markdown after the frontmatter. */
  body: string;
  /** Paths of the skill's other files, relative to its root (readable with readFile). */
  files: string[];
  /** `allowed-tools` as written, only when the person granted it; otherwise undefined (ignored). */
  allowedTools?: unknown;
}

/** One verified file of a loaded skill. */
export interface SkillFile {
  uri: string;
  path: string;
  bytes: Uint8Array;
  /** The text, when the bytes are UTF-8. */
  text?: string;
  mimeType?: string;
}

interface ActionOptions {
  caller: Caller;
  signal?: AbortSignal;
  decidedBy?: string;
}

const PERSON_DECISION: Decision = {
  verdict: 'allow',
  source: { kind: 'default', reason: 'person-action' },
  reason: "the person's own action in the Skills view",
};

export class SkillsHub {
  private readonly book: SkillApprovalBook;
  private readonly trail: SkillAuditTrail;
  private readonly cache = new VerifiedFileCache();
  private readonly state = new Map<string, ServerSkills>();
  /** The entry held while acting on a skill (from its load until the hub lets go of it). */
  private readonly held = new Map<string, SkillEntry>();
  /** The connection each server's state was built from: a reconnect starts the listing afresh. */
  private readonly clientsSeen = new Map<string, McpClient | undefined>();
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;

  constructor(private readonly options: SkillsHubOptions) {
    this.book = new SkillApprovalBook(options.store);
    this.now = options.now ?? Date.now;
    this.trail = new SkillAuditTrail(
      options.audit,
      this.now,
      options.onAuditFailure ??
        ((error) => console.warn('Toolgate: the audit log could not record how a skill action ended', error)),
    );
  }

  /**
   * Every server's skills, in the order of `options.servers()`: fresh copies each time, so a view
   * that skips rendering unchanged props (Preact with signals does) sees every change.
   */
  snapshot(): ServerSkills[] {
    this.sync();
    return this.options.servers().map((server) => {
      const state = this.state.get(server.id)!;
      return { ...state, skills: state.skills.map((record) => ({ ...record })) };
    });
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Lists a server's skills (every page). Entries only: nothing is read. */
  async refresh(serverId: string, signal?: AbortSignal): Promise<ServerSkills> {
    const server = this.serverState(serverId);
    const client = this.options.clientOf(serverId);
    const declared = client ? skillsCapability(client) : undefined;
    server.declared = client ? declared !== undefined : undefined;
    server.directoryRead = declared?.directoryRead ?? false;
    if (!client || !declared) {
      Object.assign(server, { status: 'not-listed', skills: [], rejected: [], complete: true });
      delete server.error;
      this.changed();
      return server;
    }
    server.status = 'listing';
    this.changed();
    try {
      const listing = await listSkills(client, signal);
      const fetchedByUri = server.skills.filter((record) => !record.listed);
      const records = await Promise.all(listing.held.map((read) => this.recordFor(serverId, read, true)));
      // Skills reached by URI stay known unless the listing now carries them.
      for (const record of fetchedByUri)
        if (!records.some((listed) => listed.identity.uri === record.identity.uri)) records.push(record);
      Object.assign(server, {
        status: 'listed',
        skills: records,
        rejected: listing.rejected,
        complete: listing.complete,
      });
      delete server.error;
    } catch (error) {
      server.status = 'failed';
      server.error = error instanceof Error ? error.message : String(error);
    }
    this.changed();
    return server;
  }

  /** Confirms a skill given only its URI (`skills/get`) and adds it to the registry. */
  async lookup(serverId: string, uri: string, signal?: AbortSignal): Promise<SkillRecord> {
    const client = this.requireClient(serverId);
    const read = await getSkill(client, uri, signal);
    if (!isHeldEntry(read))
      throw new Error(`${serverId}: ${uri} cannot be used as a skill: ${read.problems.join('; ')}`);
    const record = await this.recordFor(serverId, read, false);
    this.replaceRecord(serverId, record);
    return record;
  }

  /**
   * The person approves the skill as its entry stands now (binding the approval to its manifest),
   * optionally granting its `allowed-tools`. Nothing is read.
   */
  async approve(
    serverId: string,
    uri: string,
    choice: { allowedTools: boolean; decidedBy?: string; caller?: Caller },
  ): Promise<SkillRecord> {
    const record = this.requireRecord(serverId, uri);
    const { entry, identity } = record;
    await this.trail.run(
      this.activity('skills/approve', record, choice.caller ?? { kind: 'person' }, PERSON_DECISION, {
        allowedTools: choice.allowedTools,
        ...(choice.decidedBy ? { decidedBy: choice.decidedBy } : {}),
      }),
      async () => {
        const approval = await this.book.approve(identity, entry, {
          allowedTools: choice.allowedTools,
          now: this.now(),
          ...(choice.decidedBy ? { decidedBy: choice.decidedBy } : {}),
        });
        return { value: approval, summary: `approved manifest ${approval.manifestDigest}` };
      },
    );
    return this.updateRecord(record, {
      approval: approvalState(entry, await this.book.find(identity)),
      failure: undefined,
    });
  }

  /** Withdraws the approval at once; a model acting on the skill loses it too. */
  async revoke(serverId: string, uri: string, caller: Caller = { kind: 'person' }): Promise<SkillRecord> {
    const record = this.requireRecord(serverId, uri);
    await this.trail.run(this.activity('skills/revoke', record, caller, PERSON_DECISION, {}), async () => {
      const had = await this.book.revoke(record.identity);
      return { value: had, summary: had ? 'approval revoked' : 'there was no approval' };
    });
    this.held.delete(identityKey(record.identity));
    return this.updateRecord(record, { approval: approvalState(record.entry, undefined), acting: false });
  }

  /**
   * Loads a skill for a model: only with a current approval, reading its SKILL.md now and verifying
   * size, digest and frontmatter. On success the hub holds this entry while the model acts on it.
   */
  async load(serverId: string, uri: string, options: ActionOptions): Promise<LoadedSkill> {
    const record = this.requireRecord(serverId, uri);
    const approval = await this.currentApproval(record, 'skills/load', options);
    const client = this.requireClient(serverId);
    const activity = this.activity('skills/load', record, options.caller, approvedDecision(approval.id), {});
    const document = await this.verifying(record, () =>
      this.trail.run(activity, async () => {
        const read = await readSkillMd(client, record.entry, this.cache, options.signal);
        return {
          value: read,
          summary: `verified SKILL.md (${new TextEncoder().encode(read.text).byteLength} bytes${read.cached ? ', from the cache' : ''})`,
        };
      }),
    );
    this.held.set(identityKey(record.identity), record.entry);
    const current = this.updateRecord(record, { acting: true, failure: undefined });
    const { frontmatter } = record.entry;
    return {
      identity: record.identity,
      qualifiedName: current.qualifiedName,
      serverLabel: this.labelOf(serverId),
      name: frontmatter.name,
      description: frontmatter.description,
      text: document.text,
      body: document.body,
      files: this.filesOf(record.entry),
      ...(approval.allowedTools && frontmatter['allowed-tools'] !== undefined
        ? { allowedTools: frontmatter['allowed-tools'] }
        : {}),
    };
  }

  /**
   * Reads one file of a skill a model is acting on, by path relative to the skill's root. Only
   * files listed in the held entry are read; anything else is a verification failure, refused
   * before it is sent.
   */
  async readFile(serverId: string, uri: string, path: string, options: ActionOptions): Promise<SkillFile> {
    const record = this.requireRecord(serverId, uri);
    const held = this.held.get(identityKey(record.identity));
    const target = resolveInSkill(uri, path);
    const details = { file: target ?? path };
    if (!held || held.resources === 'dynamic') {
      await this.trail.refuse(
        this.activity('skills/read', record, options.caller, approvedDecision(''), details),
        'the skill is not loaded (load it first)',
      );
      throw new SkillNotApprovedError(record.identity, `${serverId}: load ${uri} before reading its files`);
    }
    const listed = target === undefined ? undefined : held.resources.find((file) => file.uri === target);
    if (!listed || !target) {
      const reason = `${target ?? path} is not in the manifest the skill was loaded under`;
      await this.trail.refuse(
        this.activity('skills/read', record, options.caller, approvedDecision(''), details),
        reason,
      );
      const failure = new SkillVerificationError(
        'unlisted',
        serverId,
        target ?? path,
        'it is not in the manifest the skill was loaded under',
      );
      this.updateRecord(record, { failure: failure.message });
      throw failure;
    }
    const approval = await this.book.find(record.identity);
    const client = this.requireClient(serverId);
    const activity = {
      ...this.activity('skills/read', record, options.caller, approvedDecision(approval?.id ?? ''), details),
      manifest: manifestDigest(held),
    };
    const content = await this.verifying(record, () =>
      this.trail.run(activity, async () => {
        const read = await readVerified(client, listed, this.cache, options.signal);
        return {
          value: read,
          summary: `verified ${read.bytes.byteLength} bytes${read.cached ? ', from the cache' : ''}`,
        };
      }),
    );
    const text = utf8Text(content.bytes);
    return {
      uri: target,
      path: pathInSkill(uri, target) ?? path,
      bytes: content.bytes,
      ...(text !== undefined ? { text } : {}),
      ...(content.mimeType ? { mimeType: content.mimeType } : {}),
    };
  }

  /**
   * Lets the person read a skill's SKILL.md before deciding (verified like a load, recorded, but
   * not a load: no acting window opens and nothing reaches a model).
   */
  async inspect(serverId: string, uri: string, caller: Caller = { kind: 'person' }): Promise<string> {
    const record = this.requireRecord(serverId, uri);
    const client = this.requireClient(serverId);
    const document = await this.verifying(record, () =>
      this.trail.run(this.activity('skills/inspect', record, caller, PERSON_DECISION, {}), async () => {
        const read = await readSkillMd(client, record.entry, this.cache);
        return { value: read, summary: 'verified SKILL.md, shown to the person' };
      }),
    );
    return document.text;
  }

  /**
   * A directory of a loaded skill: the held manifest's answer, and when the server declared
   * `directoryRead`, what the server lists now that the manifest does not (never readable under it).
   */
  async directory(
    serverId: string,
    uri: string,
    path: string,
    signal?: AbortSignal,
  ): Promise<{ files: string[]; notInManifest: DirectoryChild[] }> {
    const record = this.requireRecord(serverId, uri);
    const held = this.held.get(identityKey(record.identity)) ?? record.entry;
    const prefix = path === '' || path === '.' ? '' : `${path.replace(/\/+$/, '')}/`;
    const files = this.filesOf(held).filter((file) => file.startsWith(prefix));
    const client = this.options.clientOf(serverId);
    if (!client || !skillsCapability(client)?.directoryRead) return { files, notInManifest: [] };
    const root = uri.slice(0, -'/SKILL.md'.length);
    const children = await readDirectory(client, prefix ? `${root}/${prefix.slice(0, -1)}` : root, signal);
    const listed = new Set(held.resources === 'dynamic' ? [] : held.resources.map((file) => file.uri));
    return {
      files,
      notInManifest: children.filter(
        (child) => child.mimeType !== 'inode/directory' && !listed.has(child.uri),
      ),
    };
  }

  /** Ends a model's acting window on a skill (its SKILL.md left the context). */
  release(serverId: string, uri: string): void {
    const record = this.findRecord(serverId, uri);
    this.held.delete(identityKey({ serverId, uri }));
    if (record) this.updateRecord(record, { acting: false });
  }

  /** Skills a model may be offered: approved for the entry they have now. */
  offered(): SkillRecord[] {
    return this.snapshot().flatMap((server) =>
      server.skills.filter((record) => record.approval.state === 'approved'),
    );
  }

  /** The skill a qualified name stands for, exactly, or undefined. */
  byQualifiedName(name: string): SkillRecord | undefined {
    for (const server of this.snapshot())
      for (const record of server.skills) if (record.qualifiedName === name) return record;
    return undefined;
  }

  // -------------------------------------------------------------------------------------------

  /** Follows the controller: removed servers and their cached files go, reconnected ones relist. */
  private sync(): void {
    const servers = this.options.servers();
    const ids = new Set(servers.map((server) => server.id));
    let moved = false;
    for (const id of [...this.state.keys()])
      if (!ids.has(id)) {
        moved = true;
        this.state.delete(id);
        this.clientsSeen.delete(id);
        this.cache.forgetServer(id);
        for (const key of [...this.held.keys()]) if (key.startsWith(`${id}\u0000`)) this.held.delete(key);
      }
    for (const { id, label } of servers) {
      const client = this.options.clientOf(id);
      const existing = this.state.get(id);
      if (existing && this.clientsSeen.get(id) === client) {
        moved ||= existing.label !== label;
        existing.label = label;
        continue;
      }
      moved = true;
      this.clientsSeen.set(id, client);
      for (const key of [...this.held.keys()]) if (key.startsWith(`${id}\u0000`)) this.held.delete(key);
      const declared = client ? skillsCapability(client) : undefined;
      this.state.set(id, {
        serverId: id,
        label,
        ...(client ? { declared: declared !== undefined } : {}),
        directoryRead: declared?.directoryRead ?? false,
        status: 'not-listed',
        skills: [],
        rejected: [],
        complete: true,
      });
    }
    if (moved) this.changed();
  }

  private serverState(serverId: string): ServerSkills {
    this.sync();
    const server = this.state.get(serverId);
    if (!server) throw new Error(`No server "${serverId}" in the panel.`);
    return server;
  }

  private requireClient(serverId: string): McpClient {
    const client = this.options.clientOf(serverId);
    if (!client) throw new Error(`${serverId} is not connected; reconnect it to use its skills.`);
    return client;
  }

  private findRecord(serverId: string, uri: string): SkillRecord | undefined {
    return this.state.get(serverId)?.skills.find((record) => record.identity.uri === uri);
  }

  private requireRecord(serverId: string, uri: string): SkillRecord {
    const record = this.findRecord(serverId, uri);
    if (!record)
      throw new Error(
        `${serverId} has no skill ${uri} in the registry; list its skills or look it up first.`,
      );
    return record;
  }

  private labelOf(serverId: string): string {
    return this.options.servers().find((server) => server.id === serverId)?.label ?? serverId;
  }

  private async recordFor(serverId: string, read: ReadEntry, listed: boolean): Promise<SkillRecord> {
    const identity = { serverId, uri: read.entry.uri };
    const key = identityKey(identity);
    const digest = manifestDigest(read.entry);
    const held = this.held.get(key);
    // A fresh entry that differs from the held one ends the acting window: reads need a new approval.
    if (held && manifestDigest(held) !== digest) this.held.delete(key);
    const previous = this.findRecord(serverId, read.entry.uri);
    return {
      identity,
      entry: read.entry,
      warnings: read.warnings,
      manifestDigest: digest,
      approval: approvalState(read.entry, await this.book.find(identity)),
      nested: [],
      listed,
      ...(previous?.failure && previous.manifestDigest === digest ? { failure: previous.failure } : {}),
      acting: this.held.has(key),
      qualifiedName: '',
      sameNameElsewhere: [],
    };
  }

  private replaceRecord(serverId: string, record: SkillRecord): void {
    const server = this.serverState(serverId);
    const index = server.skills.findIndex((other) => other.identity.uri === record.identity.uri);
    if (index === -1) server.skills = [...server.skills, record];
    else {
      // A listed skill refreshed by URI stays a listed one.
      record.listed ||= server.skills[index]!.listed;
      server.skills = server.skills.map((other, at) => (at === index ? record : other));
    }
    this.changed();
  }

  private updateRecord(record: SkillRecord, change: Partial<SkillRecord>): SkillRecord {
    const next = { ...record, ...change };
    for (const [field, value] of Object.entries(change))
      if (value === undefined) delete next[field as keyof SkillRecord];
    this.replaceRecord(record.identity.serverId, next);
    return this.findRecord(record.identity.serverId, record.identity.uri) ?? next;
  }

  /** The approval a load needs: current for this entry, or a refusal on record and a readable error. */
  private async currentApproval(record: SkillRecord, action: 'skills/load', options: ActionOptions) {
    const state: ApprovalState = approvalState(record.entry, await this.book.find(record.identity));
    if (state.state === 'approved') return state.approval;
    const why =
      state.state === 'changed'
        ? 'it changed since it was approved (approve it again in the Skills view)'
        : state.state === 'dynamic'
          ? 'its files are generated by the server, so no approval can be bound to them'
          : 'the person has not approved it (approve it in the Skills view)';
    await this.trail.refuse(this.activity(action, record, options.caller, approvedDecision(''), {}), why);
    this.updateRecord(record, { approval: state });
    throw new SkillNotApprovedError(
      record.identity,
      `${record.identity.serverId}: ${record.identity.uri} was not loaded: ${why}.`,
    );
  }

  /**
   * Runs a read; on a verification failure, notes it on the skill and fetches the skill's entry
   * again (`skills/get`): if the server changed the skill, the registry now shows the new entry,
   * whose approval no longer holds. The failure is thrown either way.
   */
  private async verifying<T>(record: SkillRecord, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      this.held.delete(identityKey(record.identity));
      this.updateRecord(record, { failure: error.message, acting: false });
      await this.lookup(record.identity.serverId, record.identity.uri).then(
        (fresh) => {
          if (fresh.manifestDigest === record.manifestDigest)
            this.updateRecord(fresh, { failure: error.message });
        },
        () => undefined,
      );
      throw error;
    }
  }

  private activity(
    action: SkillActivity['action'],
    record: SkillRecord,
    caller: Caller,
    decision: Decision,
    extra: Record<string, unknown>,
  ): SkillActivity {
    const { decidedBy, ...details } = extra as { decidedBy?: string };
    return {
      action,
      serverId: record.identity.serverId,
      caller,
      details: { skill: record.identity.uri, ...details },
      manifest: record.manifestDigest,
      decision,
      ...(decidedBy ? { decidedBy } : {}),
    };
  }

  private filesOf(entry: SkillEntry): string[] {
    if (entry.resources === 'dynamic') return [];
    return entry.resources
      .filter((file) => file.uri !== entry.uri)
      .map((file) => pathInSkill(entry.uri, file.uri) ?? file.uri)
      .sort();
  }

  private changed(): void {
    linkRegistry([...this.state.values()]);
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A view's error must not break the hub.
      }
    }
  }
}

function approvedDecision(grantId: string): Decision {
  return grantId
    ? {
        verdict: 'allow',
        source: { kind: 'remembered', scope: 'always', grantId },
        reason: "the person approved this skill's manifest",
      }
    : {
        verdict: 'deny',
        source: { kind: 'default', reason: 'not-approved' },
        reason: 'the skill has no current approval',
      };
}
