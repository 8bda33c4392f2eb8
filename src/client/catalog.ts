/**
 * The tool catalog of one connection: paginated listing with guards, freshness (ttlMs in the modern
 * era, list-change notifications in both), and per-tool checks. It keeps every field a server sends.
 */

import { GuardError, isJsonObject, type ListToolsResult, type Tool } from '../protocol/index.js';
import type { CatalogStop } from './catalog-stops.js';
import { DEFAULT_MAX_ITEMS, DEFAULT_MAX_PAGES } from './listing-bounds.js';
import type { ClientWarning } from './options.js';
import { type HeaderBinding, headerBindings, isToolShape } from './tool-checks.js';
import { TOOL_NAME } from './tool-name.js';

type ToolProblems = typeof import('./tool-problems-entry.js');

/** A tool as the catalog holds it. */
export interface CatalogEntry {
  tool: Tool;
  /** `serverId/toolName`: unique across the servers a host aggregates. */
  qualifiedName: string;
  /** x-mcp-header bindings (modern era over HTTP). */
  headerBindings: HeaderBinding[];
  /** Problems that did not exclude the tool (bad name, duplicate). */
  warnings: string[];
  /**
   * The definition listed under this name when this connection first listed it (the same object
   * as `tool` until the server changes it): what the gate compares with to show a change.
   */
  firstListed: Tool;
}

/** One full listing. */
export interface CatalogSnapshot {
  entries: CatalogEntry[];
  /** Tools excluded because their definitions are invalid, with the reason. */
  rejected: { name: string; reason: string }[];
  /** Set when the listing stopped early (cursor loop, too many pages, a failing page): what was fetched is kept. */
  incomplete?: Error;
  fetchedAt: number;
  /** Freshness deadline (ms since epoch); Infinity when only a notification can make it stale. */
  freshUntil: number;
}

export interface CatalogOptions {
  serverId: string;
  /** Fetches one page. */
  fetchPage: (cursor: string | undefined) => Promise<ListToolsResult>;
  /** Modern era over HTTP: x-mcp-header rules apply and invalid tools are excluded. */
  enforceHeaderRules: () => boolean;
  /** Whether freshness follows ttlMs (modern) or notifications only (legacy). */
  usesTtl: () => boolean;
  /** At most this many pages per listing (default DEFAULT_MAX_PAGES). */
  maxPages?: number;
  /** At most this many tools per listing (default DEFAULT_MAX_TOOLS); the rest are not kept. */
  maxTools?: number;
  onWarning?: ((warning: ClientWarning) => void) | undefined;
  now?: () => number;
}

export { DEFAULT_MAX_PAGES };

/** Names whose first definition a catalog remembers (twice the tools of one listing). */
const FIRST_LISTED_NAMES = 100_000;
/** Tools kept from one listing (listing-bounds.ts). */
export const DEFAULT_MAX_TOOLS = DEFAULT_MAX_ITEMS;

/** Qualifies a tool name by the connection's identity, which, unlike the server's self-reported name, is unique. */
export function qualifyToolName(serverId: string, toolName: string): string {
  return `${serverId}/${toolName}`;
}

export class ToolCatalog {
  private snapshot: CatalogSnapshot | undefined;
  private inflight: Promise<CatalogSnapshot> | undefined;
  private generation = 0;
  private readonly listeners = new Set<(snapshot: CatalogSnapshot) => void>();
  /** Each name's definition in the first listing that had it: one map entry per name, never hashed here. */
  private readonly firstListed = new Map<string, Tool>();

  constructor(private readonly options: CatalogOptions) {}

  /** The last listing, fresh or not. */
  get current(): CatalogSnapshot | undefined {
    return this.snapshot;
  }

  /** Returns a fresh listing, fetching when stale, invalidated, or when `refresh` is set. */
  async list(refresh = false): Promise<CatalogSnapshot> {
    const now = this.now();
    if (!refresh && this.snapshot && now < this.snapshot.freshUntil) return this.snapshot;
    if (!this.inflight) {
      const generation = this.generation;
      this.inflight = this.fetchAll().finally(() => {
        this.inflight = undefined;
      });
      const snapshot = await this.inflight;
      // A list change that arrived while we were fetching makes this listing stale already.
      if (generation !== this.generation) snapshot.freshUntil = 0;
      this.snapshot = snapshot;
      for (const listener of this.listeners) listener(snapshot);
      return snapshot;
    }
    return this.inflight;
  }

  /** Finds a tool by name in the last listing, fetching one if there is none yet. */
  async find(name: string): Promise<CatalogEntry | undefined> {
    const snapshot = this.snapshot ?? (await this.list());
    return snapshot.entries.find((entry) => entry.tool.name === name);
  }

  /** Marks the listing stale (a list-change notification arrived). */
  invalidate(): void {
    this.generation++;
    if (this.snapshot) this.snapshot.freshUntil = 0;
  }

  /** Called after every completed listing. */
  subscribe(listener: (snapshot: CatalogSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async fetchAll(): Promise<CatalogSnapshot> {
    const { serverId } = this.options;
    const maxPages = this.options.maxPages ?? DEFAULT_MAX_PAGES;
    const maxTools = this.options.maxTools ?? DEFAULT_MAX_TOOLS;
    const tools: unknown[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    let minTtl = Number.POSITIVE_INFINITY;
    let stop: CatalogStop | undefined;
    const fetchedAt = this.now();

    for (;;) {
      let page: ListToolsResult;
      try {
        page = await this.options.fetchPage(cursor);
      } catch (error) {
        if (pages === 0) throw error;
        stop = { kind: 'page-failed', error };
        break;
      }
      pages++;
      if (!Array.isArray(page.tools)) {
        stop = { kind: 'no-tools-array' };
        break;
      }
      // One at a time: spreading a huge page into push() overflows the argument limit.
      let dropped = false;
      for (const candidate of page.tools) {
        if (tools.length >= maxTools) {
          dropped = true;
          break;
        }
        tools.push(candidate);
      }
      if (this.options.usesTtl()) {
        const ttl = typeof page.ttlMs === 'number' && page.ttlMs > 0 ? page.ttlMs : 0;
        minTtl = Math.min(minTtl, ttl);
      }
      const next = page.nextCursor;
      const more = typeof next === 'string' && next !== '';
      if (dropped || (more && tools.length >= maxTools)) {
        stop = { kind: 'too-many-tools', maxTools };
        break;
      }
      if (!more) break;
      if (seenCursors.has(next)) {
        stop = { kind: 'cursor-loop', cursor: next };
        break;
      }
      if (pages >= maxPages) {
        stop = { kind: 'too-many-pages', maxPages };
        break;
      }
      seenCursors.add(next);
      cursor = next;
    }

    // The wording of a wrong tool loads only for a listing that has one (tool-problems.ts).
    const wrong = tools.some((tool) => !isToolShape(tool) || !TOOL_NAME.test(tool.name));
    const snapshot = this.check(tools, wrong ? await import('./tool-problems-entry.js') : undefined);
    // The wording of an early stop loads only when a listing stops early (catalog-stops.ts).
    const incomplete = stop
      ? new GuardError(
          (await import('./catalog-stops.js')).catalogStopMessage(serverId, stop, pages, tools.length),
        )
      : undefined;
    if (incomplete) this.warn('catalog-incomplete', incomplete.message);
    return {
      ...snapshot,
      ...(incomplete ? { incomplete } : {}),
      fetchedAt,
      freshUntil: this.options.usesTtl()
        ? fetchedAt + (Number.isFinite(minTtl) ? minTtl : 0)
        : Number.POSITIVE_INFINITY,
    };
  }

  /** `problems` is loaded when some tool in `raw` is not a tool or breaks the naming rules. */
  private check(
    raw: unknown[],
    problems: ToolProblems | undefined,
  ): Pick<CatalogSnapshot, 'entries' | 'rejected'> {
    const { serverId } = this.options;
    const enforceHeaders = this.options.enforceHeaderRules();
    const entries: CatalogEntry[] = [];
    const rejected: CatalogSnapshot['rejected'] = [];
    const byName = new Map<string, CatalogEntry>();
    for (const candidate of raw) {
      if (!isToolShape(candidate)) {
        const name =
          isJsonObject(candidate) && typeof candidate.name === 'string' ? candidate.name : '(unnamed)';
        rejected.push({ name, reason: problems?.toolShapeProblem(candidate) ?? 'not a tool definition' });
        continue;
      }
      const warnings: string[] = [];
      let bindings: HeaderBinding[] = [];
      const headerCheck = headerBindings(candidate.inputSchema);
      if ('problem' in headerCheck) {
        if (enforceHeaders) {
          const reason = `invalid x-mcp-header: ${headerCheck.problem}`;
          rejected.push({ name: candidate.name, reason });
          this.warn('invalid-x-mcp-header', `${serverId}: tool "${candidate.name}" excluded: ${reason}`);
          continue;
        }
      } else bindings = headerCheck.bindings;
      const nameProblem = problems?.toolNameProblem(candidate.name);
      if (nameProblem) {
        warnings.push(`name breaks the MCP naming rules: ${nameProblem}`);
        this.warn('invalid-tool-name', `${serverId}: tool "${truncate(candidate.name)}": ${nameProblem}`);
      }
      let firstListed = this.firstListed.get(candidate.name);
      if (!firstListed) {
        firstListed = candidate;
        // Bounded: a server that renames its tools on every listing cannot grow this without end.
        if (this.firstListed.size < FIRST_LISTED_NAMES) this.firstListed.set(candidate.name, candidate);
      }
      const entry: CatalogEntry = {
        tool: candidate,
        qualifiedName: qualifyToolName(serverId, candidate.name),
        headerBindings: bindings,
        warnings,
        firstListed,
      };
      const twin = byName.get(candidate.name);
      if (twin) {
        const message = 'another tool of this server has the same name: calls go to the first one listed';
        entry.warnings.push(message);
        if (!twin.warnings.includes(message)) twin.warnings.push(message);
        this.warn(
          'duplicate-tool-name',
          `${serverId}: tool name "${truncate(candidate.name)}" is listed twice`,
        );
      } else byName.set(candidate.name, entry);
      entries.push(entry);
    }
    return { entries, rejected };
  }

  private warn(code: ClientWarning['code'], message: string): void {
    this.options.onWarning?.({ serverId: this.options.serverId, code, message });
  }
}

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
