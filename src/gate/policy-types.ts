/**
 * Policy vocabulary beyond types.ts: the rules a person writes, the approvals Toolgate remembers,
 * and the Policy seam the pipeline calls. Everything stored is plain JSON (it survives structured
 * clone and IndexedDB).
 */

import type { JsonObject, Tool } from '../protocol/index.js';
import type {
  Caller,
  Decision,
  DefinitionChange,
  PinnedTool,
  RememberScope,
  TrustLevel,
  ValidationReport,
  Verdict,
} from './types.js';

/** A JSON value as rules compare it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Matches any server or any tool in a rule. */
export const ANY = '*';

/** How a condition compares the argument found at its path. */
export type ConditionOp =
  | 'equals'
  | 'not-equals'
  | 'matches'
  | 'starts-with'
  | 'in'
  | 'exists'
  | 'range'
  | 'under';

/**
 * A test on one argument value. `path` reads into the arguments (`path`, `options.mode`, `items[0]`,
 * `["key.with.dots"]`). `matches` is a JavaScript regular expression (flag `u`, searched, not anchored);
 * `in` takes an array; `exists` takes nothing, or `false` to require the argument to be absent;
 * `range` takes `{min?, max?}` (inclusive; the argument must be a number); `under` takes an absolute
 * path (`/home/me/notes`): the argument, once `.` and `..` are resolved, is that folder or inside it.
 */
export interface ArgumentCondition {
  path: string;
  op: ConditionOp;
  value?: JsonValue;
}

/**
 * Which callers a rule speaks for. Absent: the person's own calls (the panel and the host app) for
 * `allow`, every caller for `ask` and `deny` (narrowing is safe to widen; allowing never is). A kind
 * without a label covers every caller of that kind (every site); with a label, exactly that one.
 */
export interface RuleCaller {
  kind: Caller['kind'];
  label?: string;
}

/**
 * A rule the person wrote. `server` is an exact name or `'*'`; `tool` is an exact name, `'*'`, or a
 * pattern where `*` stands for any characters (`read_*`); every condition must hold.
 */
export interface PolicyRule {
  id: string;
  verdict: Verdict;
  server: string;
  tool: string;
  caller?: RuleCaller;
  when?: ArgumentCondition[];
  /** A short name the person gave it, shown wherever the rule decides ("Careful with deletes"). */
  name?: string;
  note?: string;
  /** Where the person placed it in their list (lower first): it breaks ties of equal specificity. */
  position?: number;
  /** When it stops applying (ms since epoch); absent: never. */
  expiresAt?: number;
  createdAt: number;
  updatedAt: number;
}

/** What saveRule takes: a new rule (no id) or an edit of an existing one (its id). */
export interface RuleInput {
  id?: string;
  verdict: Verdict;
  server: string;
  tool: string;
  caller?: RuleCaller;
  when?: ArgumentCondition[];
  name?: string;
  note?: string;
  position?: number;
  expiresAt?: number;
}

/** One reason a rule cannot be saved, at a field a form can point to (`when[1].value`). */
export interface RuleIssue {
  field: string;
  message: string;
}

/**
 * What a remembered approval covers: the one tool it was given for ('tool'), every tool of that
 * server ('server'; tools that may destroy things only with `includeDestructive`), or the server's
 * tools that say they only read ('server-read-only').
 */
export type GrantReach = 'tool' | 'server' | 'server-read-only';

/** The tool name a server-wide grant is listed under. */
export const EVERY_TOOL = '*';

/**
 * A remembered approval: it applies only to its caller, on its server, to the tools its reach
 * covers, while each covered definition is the one approved (or differs only by narrowing). Grants
 * stored before callers were recorded read back as the person's own.
 */
export interface Grant {
  id: string;
  /** The caller the person approved for; the grant never covers another caller. */
  caller: Caller;
  serverId: string;
  /** The tool, or `EVERY_TOOL` for a server-wide reach. */
  toolName: string;
  /** Absent: 'tool' (every grant stored before reaches existed). */
  reach?: GrantReach;
  /** 'server' only: the person ticked that it covers tools that may destroy things too. */
  includeDestructive?: boolean;
  /** The hash of the definition approved (for a server-wide grant: of the tool it was given in). */
  definitionHash: string;
  /** The definition the person approved, kept so a later change can be shown line by line. */
  definition: Tool;
  /**
   * Server-wide grants: each covered tool's definition as it was when the grant first covered it,
   * so a later change is weighed like a one-tool grant's.
   */
  covered?: Record<string, { definitionHash: string; definition: Tool }>;
  /** 'session': until the page (tab) closes; 'hour': until `expiresAt`; 'always': until revoked. */
  scope: 'session' | 'hour' | 'always';
  /** When a time-limited grant ends (epoch ms). */
  expiresAt?: number;
  createdAt: number;
  decidedBy?: string;
}

/** How far a remembered approval reaches beyond the tool asked about. */
export interface GrantReachChoice {
  reach: GrantReach;
  includeDestructive?: boolean;
}

/** Per-server trust as stored; servers without a record are untrusted. */
export interface TrustRecord {
  serverId: string;
  level: TrustLevel;
  updatedAt: number;
}

/** Tunable defaults (never widened silently: sites and apps are added to the callers by choice). */
export interface PolicyDefaults {
  /** What a trusted server's read-only (and not destructive) tools get when no rule or grant applies. */
  trustedReadOnly: 'allow' | 'ask';
  /**
   * Which callers `trustedReadOnly: 'allow'` applies to. Default: the person and the host app only.
   * Sites and MCP Apps are asked unless the person made a rule or remembered approval for them.
   */
  trustedReadOnlyCallers: ReadonlyArray<Caller['kind']>;
}

/** Everything decide() looks at for one call. */
export interface DecisionContext {
  /** Who asks: part of every decision (rules and remembered approvals are per caller). */
  caller: Caller;
  pinned: PinnedTool;
  /** Must equal pinned.serverId when given (the pipeline passes both); a mismatch is denied. */
  serverId?: string;
  arguments: JsonObject;
  validation: ValidationReport;
  trust: TrustLevel;
  /** The server as the person knows it (its label), for the reasons shown to them. Default: its id. */
  serverLabel?: string;
}

/** A decision, plus what changed in the definition since a remembered approval (when it no longer applies). */
export interface PolicyOutcome {
  decision: Decision;
  definitionChange?: DefinitionChange;
}

/** What changed, for views that list rules, grants or trust. */
export type PolicyChange = { kind: 'rules' } | { kind: 'grants' } | { kind: 'trust'; serverId: string };

/** The gate's policy: decisions, remembered approvals, per-server trust and the person's rules. */
export interface Policy {
  /** Decides one call; safe to call concurrently; sees every change issued before it was called. */
  decide(context: DecisionContext): Promise<PolicyOutcome>;
  /**
   * What changed since the tool was first seen, until the person has answered a dialog showing it
   * (see first-seen.ts). Optional: a policy without it shows changes only to callers with a grant.
   */
  changeSinceFirstSeen?(pinned: PinnedTool, firstListed: Tool): Promise<DefinitionChange | undefined>;
  /** The person answered a dialog that showed this definition's change. */
  acknowledgeChange?(serverId: string, toolName: string, definitionHash: string): Promise<void>;
  /**
   * Remembers an approval of exactly this pinned definition for this caller (or, with `reach`, of
   * every tool of its server that the reach covers); `once` remembers nothing.
   */
  remember(
    caller: Caller,
    pinned: PinnedTool,
    scope: RememberScope,
    decidedBy?: string,
    reach?: GrantReachChoice,
  ): Promise<Grant | undefined>;
  /**
   * The remembered approval of this caller for `toolName` on the server (any definition), for a
   * decision made outside `decide`: reads and prompt gets (access-steps.ts). Optional: without it
   * nothing but tool calls is remembered.
   */
  findGrant?(caller: Caller, serverId: string, toolName: string): Promise<Grant | undefined>;
  /** The server's trust level (untrusted unless the person chose otherwise). */
  trustOf(serverId: string): Promise<TrustLevel>;
  /** Sets a server's trust level. */
  setTrust(serverId: string, level: TrustLevel): Promise<void>;
  /** Servers the person trusts. */
  listTrust(): Promise<TrustRecord[]>;
  /** Every saved rule, in the person's list order (rules from before there was a list last, oldest first). */
  listRules(): Promise<PolicyRule[]>;
  /** Validates and saves a rule; throws RuleValidationError with readable issues. */
  saveRule(input: RuleInput): Promise<PolicyRule>;
  /** Deletes a rule; false when there was none. */
  deleteRule(id: string): Promise<boolean>;
  /** Moves a rule up (negative) or down (positive) the person's list; false when there is none. */
  moveRule(id: string, offset: number): Promise<boolean>;
  /**
   * Adds rules (a shared policy) at the end of the list, with new ids. All or nothing: when any is
   * invalid, throws RuleValidationError (fields `rules[2].tool`) and saves none.
   */
  importRules(inputs: readonly unknown[]): Promise<PolicyRule[]>;
  /** Every remembered approval (this session's and the persisted ones), oldest first. */
  listGrants(): Promise<Grant[]>;
  /** Revokes a remembered approval at once; false when there was none. */
  revokeGrant(id: string): Promise<boolean>;
  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (change: PolicyChange) => void): () => void;
}
