/**
 * The person's rules: validation on save (readable issues), safe compilation, matching over server,
 * tool and argument values, and the choice between several matching rules.
 *
 * Callers: a rule that names a caller (a kind, or a kind and exact label) applies only to it. A rule
 * that names none applies to every caller when it asks or denies, but an allow rule without a caller
 * speaks only for the person's own calls (the panel and the host app): allowing a web site or an MCP
 * App is never implied, the person must name it.
 *
 * Choosing: a matching deny rule always wins, however broad. Otherwise the most specific matching
 * rule decides: an exact tool beats a tool pattern (`read_*`), which beats '*', then an exact server
 * beats '*', then a rule with argument conditions beats one without, then a rule that names the
 * caller beats one that does not (so: server+tool+conditions > server+tool > tool on any server >
 * server-wide > global). At equal specificity the rule higher in the person's list wins (its
 * position); between rules without a position, the stricter verdict: deny > ask > allow. A rule past
 * its expiry applies to nothing.
 *
 * A condition that cannot be evaluated (an argument too long to search, a stored rule that no longer
 * compiles) counts in the cautious direction: it holds for deny and ask rules and fails for allow rules.
 */

import { canonicalJson, type JsonObject } from '../protocol/index.js';
import { catastrophicShape } from '../schema/index.js';
import { describeCaller, identityLabel, isOwnCaller, parseCaller } from './caller.js';
import {
  ANY,
  type ArgumentCondition,
  type ConditionOp,
  type JsonValue,
  type PolicyRule,
  type RuleCaller,
  type RuleInput,
  type RuleIssue,
} from './policy-types.js';
import type { Caller, Verdict } from './types.js';

const MAX_PATTERN_LENGTH = 200;
/** Longest string a `matches` condition searches; longer ones are "cannot tell" (see above). */
const MAX_MATCH_INPUT = 2000;
const MAX_CONDITIONS = 16;
const MAX_PATH_LENGTH = 300;
const MAX_IN_VALUES = 100;
const MAX_NAME_LENGTH = 500;
const MAX_NOTE_LENGTH = 500;
const MAX_RULE_NAME_LENGTH = 100;

const VERDICTS: readonly Verdict[] = ['allow', 'ask', 'deny'];
const OPS: readonly ConditionOp[] = [
  'equals',
  'not-equals',
  'matches',
  'starts-with',
  'in',
  'exists',
  'range',
  'under',
];
const RULE_FIELDS = new Set([
  'id',
  'verdict',
  'server',
  'tool',
  'caller',
  'when',
  'note',
  'name',
  'position',
  'expiresAt',
  'createdAt',
  'updatedAt',
]);
const CONDITION_FIELDS = new Set(['path', 'op', 'value']);

/** Thrown by saveRule: every problem, each at a field a form can point to. */
export class RuleValidationError extends Error {
  override readonly name = 'RuleValidationError';
  constructor(readonly issues: RuleIssue[]) {
    super(`This rule cannot be saved: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}.`);
  }
}

/** Checks a rule as a person (or a form) submitted it; returns the normalized input or every issue. */
export function checkRule(
  input: unknown,
): { ok: true; rule: RuleInput } | { ok: false; issues: RuleIssue[] } {
  const issues: RuleIssue[] = [];
  if (!isRecord(input)) return { ok: false, issues: [{ field: 'rule', message: 'must be an object' }] };
  for (const key of Object.keys(input))
    if (!RULE_FIELDS.has(key)) issues.push({ field: key, message: 'is not a rule field (typo?)' });

  const { id, verdict, server, tool, caller, when, note, name, position, expiresAt } = input;
  if (id !== undefined && (typeof id !== 'string' || id.length === 0 || id.length > 100))
    issues.push({ field: 'id', message: 'must be the id of an existing rule, or left out for a new rule' });
  if (!VERDICTS.includes(verdict as Verdict))
    issues.push({ field: 'verdict', message: 'must be "allow", "ask" or "deny"' });
  const serverProblem = nameProblem(server, 'server');
  if (serverProblem) issues.push({ field: 'server', message: serverProblem });
  const toolProblem = nameProblem(tool, 'tool');
  if (toolProblem) issues.push({ field: 'tool', message: toolProblem });
  if (note !== undefined && (typeof note !== 'string' || note.length > MAX_NOTE_LENGTH))
    issues.push({ field: 'note', message: `must be text of at most ${MAX_NOTE_LENGTH} characters` });
  if (name !== undefined && (typeof name !== 'string' || name.length > MAX_RULE_NAME_LENGTH))
    issues.push({ field: 'name', message: `must be text of at most ${MAX_RULE_NAME_LENGTH} characters` });
  if (position !== undefined && (typeof position !== 'number' || !Number.isFinite(position)))
    issues.push({ field: 'position', message: 'must be a number (its place in the list)' });
  if (
    expiresAt !== undefined &&
    (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt) || expiresAt <= 0)
  )
    issues.push({ field: 'expiresAt', message: 'must be a time (milliseconds since 1970), or left out' });
  const ruleCaller = caller === undefined ? undefined : checkRuleCaller(caller, issues);

  const conditions: ArgumentCondition[] = [];
  if (when !== undefined) {
    if (!Array.isArray(when)) issues.push({ field: 'when', message: 'must be a list of conditions' });
    else if (when.length > MAX_CONDITIONS)
      issues.push({
        field: 'when',
        message: `has ${when.length} conditions; the limit is ${MAX_CONDITIONS}`,
      });
    else
      when.forEach((condition, index) => {
        const checked = checkCondition(condition, `when[${index}]`, issues);
        if (checked) conditions.push(checked);
      });
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    rule: {
      ...(typeof id === 'string' ? { id } : {}),
      verdict: verdict as Verdict,
      server: server as string,
      tool: tool as string,
      ...(ruleCaller ? { caller: ruleCaller } : {}),
      ...(conditions.length > 0 ? { when: conditions } : {}),
      ...(typeof note === 'string' && note.trim() !== '' ? { note } : {}),
      ...(typeof name === 'string' && name.trim() !== '' ? { name: name.trim() } : {}),
      ...(typeof position === 'number' ? { position } : {}),
      ...(typeof expiresAt === 'number' ? { expiresAt } : {}),
    },
  };
}

function checkRuleCaller(value: unknown, issues: RuleIssue[]): RuleCaller | undefined {
  const parsed = parseCaller(value);
  if (!parsed) {
    issues.push({
      field: 'caller',
      message: 'must be {kind: "person" | "host" | "site" | "mcp-app" | "agent", label?: text}, or left out',
    });
    return undefined;
  }
  // The person is one identity whatever the panel calls them.
  if (parsed.kind === 'person') return { kind: 'person' };
  if (parsed.label !== undefined) {
    if (parsed.label.trim() === '' || parsed.label !== parsed.label.trim())
      issues.push({ field: 'caller.label', message: 'must be the exact origin, app or URI, without spaces' });
    else if (parsed.label.length > MAX_NAME_LENGTH)
      issues.push({ field: 'caller.label', message: `is longer than ${MAX_NAME_LENGTH} characters` });
  }
  return parsed;
}

function nameProblem(name: unknown, what: 'server' | 'tool'): string | undefined {
  const hint =
    what === 'server'
      ? 'a server id as Toolgate shows it, or "*" for every server'
      : 'a tool name, a pattern such as "read_*", or "*" for every tool';
  if (typeof name !== 'string' || name.trim() === '') return `must be ${hint}`;
  if (name.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`;
  if (name !== name.trim()) return `has spaces at its ends; names must match exactly (${hint})`;
  if (what === 'server' && name !== ANY && name.includes('*'))
    return 'contains "*": a server is named exactly, or "*" on its own for every server';
  return undefined;
}

function checkCondition(
  condition: unknown,
  field: string,
  issues: RuleIssue[],
): ArgumentCondition | undefined {
  if (!isRecord(condition)) {
    issues.push({ field, message: 'must be an object with path, op and value' });
    return undefined;
  }
  const before = issues.length;
  for (const key of Object.keys(condition))
    if (!CONDITION_FIELDS.has(key))
      issues.push({ field: `${field}.${key}`, message: 'is not a condition field' });
  const { path, op, value } = condition;
  const hasValue = 'value' in condition && value !== undefined;
  if (typeof path !== 'string')
    issues.push({ field: `${field}.path`, message: 'must name an argument, e.g. "path"' });
  else {
    const parsed = parsePath(path);
    if (typeof parsed === 'string') issues.push({ field: `${field}.path`, message: parsed });
  }
  if (!OPS.includes(op as ConditionOp)) {
    issues.push({ field: `${field}.op`, message: `must be one of ${OPS.map((o) => `"${o}"`).join(', ')}` });
    return undefined;
  }
  const problem = valueProblem(op as ConditionOp, hasValue, value);
  if (problem) issues.push({ field: `${field}.value`, message: problem });
  if (issues.length > before) return undefined;
  return { path: path as string, op: op as ConditionOp, ...(hasValue ? { value: value as JsonValue } : {}) };
}

function valueProblem(op: ConditionOp, hasValue: boolean, value: unknown): string | undefined {
  switch (op) {
    case 'exists':
      return hasValue && typeof value !== 'boolean'
        ? 'must be left out (the argument is present), or false (the argument is absent)'
        : undefined;
    case 'equals':
    case 'not-equals':
      if (!hasValue)
        return `is needed: what should the argument ${op === 'equals' ? 'equal' : 'differ from'}?`;
      return isJsonValue(value, 0)
        ? undefined
        : 'must be plain JSON (text, number, true/false, null, list, object)';
    case 'starts-with':
      return typeof value === 'string' && value !== ''
        ? undefined
        : 'must be the text the argument starts with';
    case 'in':
      if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty list of allowed values';
      if (value.length > MAX_IN_VALUES) return `has ${value.length} values; the limit is ${MAX_IN_VALUES}`;
      return isJsonValue(value, 0) ? undefined : 'must contain only plain JSON values';
    case 'matches':
      return typeof value === 'string' ? patternProblem(value) : 'must be a regular expression, as text';
    case 'range':
      return rangeProblem(value);
    case 'under':
      if (typeof value !== 'string' || !value.startsWith('/'))
        return 'must be an absolute folder path, e.g. "/home/me/notes"';
      if (value.length > MAX_PATH_LENGTH) return `is longer than ${MAX_PATH_LENGTH} characters`;
      return normalizePath(value) === undefined
        ? 'must be a plain path (no "\\", "%" or control characters)'
        : undefined;
  }
}

function rangeProblem(value: unknown): string | undefined {
  const shape = 'must be {min, max} with at least one number, e.g. {"min": 0, "max": 100}';
  if (!isRecord(value)) return shape;
  const keys = Object.keys(value);
  if (keys.length === 0 || keys.some((key) => key !== 'min' && key !== 'max')) return shape;
  const { min, max } = value;
  for (const bound of [min, max])
    if (bound !== undefined && (typeof bound !== 'number' || !Number.isFinite(bound))) return shape;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    return `has min ${min} above max ${max}: nothing could match`;
  return undefined;
}

/**
 * An absolute path with `.`, `..` and repeated slashes resolved, or undefined when it cannot be
 * read safely: relative, or holding a backslash, a percent sign (a server may decode `%2e%2e`) or a
 * control character. `..` above the root stays at the root, as POSIX does.
 */
export function normalizePath(path: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  if (!path.startsWith('/') || /[\\%\u0000-\u001f\u007f]/u.test(path)) return undefined;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Whether `path` is `folder` or inside it (both normalized). */
function isUnder(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}

/**
 * Why a pattern cannot be used, or undefined. Patterns are length-limited and compiled with the `u`
 * flag; a shape that can backtrack catastrophically is refused by the same heuristic that guards
 * servers' schema patterns (schema/regex-risk.ts), so a rule and a schema disagree on nothing.
 */
export function patternProblem(pattern: string): string | undefined {
  if (pattern === '') return 'must not be empty (it would match everything)';
  if (pattern.length > MAX_PATTERN_LENGTH)
    return `is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`;
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return `is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
  }
  const risk = catastrophicShape(pattern);
  return risk ? `${risk}: simplify it` : undefined;
}

/** A path into the arguments, parsed: names and array indexes. */
type ArgumentPath = (string | number)[];

/**
 * Parses `a.b[0]["odd.key"]` into segments, or returns what is wrong with it as a readable phrase.
 */
function parsePath(path: string): ArgumentPath | string {
  if (path === '') return 'is empty: name an argument, e.g. "path" or "options.mode"';
  if (path.length > MAX_PATH_LENGTH) return `is longer than ${MAX_PATH_LENGTH} characters`;
  const segments: ArgumentPath = [];
  let i = 0;
  while (i < path.length) {
    const char = path[i];
    if (char === '[') {
      const quote = path[i + 1];
      if (quote === '"' || quote === "'") {
        let j = i + 2;
        let name = '';
        while (j < path.length && path[j] !== quote) {
          if (path[j] === '\\') j++;
          name += path[j] ?? '';
          j++;
        }
        if (path[j] !== quote || path[j + 1] !== ']')
          return `has an unclosed [${quote}…${quote}] starting at position ${i + 1}`;
        segments.push(name);
        i = j + 2;
      } else {
        const index = /^\[(\d{1,9})\]/.exec(path.slice(i));
        if (!index) return `needs a number or a quoted name inside [ ] at position ${i + 1}`;
        segments.push(Number(index[1]));
        i += index[0].length;
      }
      continue;
    }
    if (segments.length > 0) {
      if (char !== '.') return `expects "." or "[" at position ${i + 1}`;
      i++;
    }
    const name = /^[^.[\]]+/.exec(path.slice(i));
    if (!name) return `has an empty or malformed name at position ${i + 1}`;
    segments.push(name[0]);
    i += name[0].length;
  }
  return segments;
}

/** The value at `path` in `args` (own properties only), or undefined. */
function readPath(args: JsonObject, path: ArgumentPath): unknown {
  let current: unknown = args;
  for (const segment of path) {
    if (Array.isArray(current)) {
      const index = typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      if (index < 0 || index >= current.length) return undefined;
      current = current[index];
    } else if (isRecord(current)) {
      const key = String(segment);
      if (!Object.hasOwn(current, key)) return undefined;
      current = current[key];
    } else return undefined;
  }
  return current;
}

type Truth = 'yes' | 'no' | 'unknown';
type Evaluate = (args: JsonObject) => Truth;

/** A rule ready to match. */
export interface CompiledRule {
  rule: PolicyRule;
  specificity: number;
  conditions: Evaluate[];
  /** Whether the rule's tool (a name, '*' or a pattern) covers a tool name. */
  coversTool: (toolName: string) => boolean;
}

/** Compiles a rule (a stored one is re-checked: a condition that no longer compiles evaluates as "unknown"). */
export function compileRule(rule: PolicyRule): CompiledRule {
  const conditions = (Array.isArray(rule.when) ? rule.when : rule.when === undefined ? [] : [undefined]).map(
    compileCondition,
  );
  return { rule, specificity: specificity(rule), conditions, coversTool: toolMatcher(rule.tool) };
}

/** Whether a rule's tool is a pattern (holds "*" but is not "*" alone). */
function isToolPattern(tool: string): boolean {
  return tool !== ANY && tool.includes('*');
}

/** '*' covers every tool; a pattern's "*" stands for any characters (anchored); else exact. */
function toolMatcher(tool: string): (toolName: string) => boolean {
  if (tool === ANY) return () => true;
  if (!isToolPattern(tool)) return (toolName) => toolName === tool;
  const source = tool
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const pattern = new RegExp(`^${source}$`, 'su');
  return (toolName) => pattern.test(toolName);
}

/**
 * 16 for an exact tool, 8 for a tool pattern, 4 for an exact server, 2 for argument conditions,
 * 1 for a named caller.
 */
function specificity(rule: Pick<PolicyRule, 'server' | 'tool' | 'when' | 'caller'>): number {
  return (
    (rule.tool === ANY ? 0 : isToolPattern(rule.tool) ? 8 : 16) +
    (rule.server !== ANY ? 4 : 0) +
    (rule.when?.length ? 2 : 0) +
    (rule.caller ? 1 : 0)
  );
}

/** Whether a rule speaks for this caller (see the file comment). */
function ruleCoversCaller(rule: Pick<PolicyRule, 'caller' | 'verdict'>, caller: Caller): boolean {
  if (!rule.caller) return rule.verdict !== 'allow' || isOwnCaller(caller);
  if (rule.caller.kind !== caller.kind) return false;
  return rule.caller.label === undefined || rule.caller.label === identityLabel(caller);
}

const unknown: Evaluate = () => 'unknown';

function compileCondition(condition: unknown): Evaluate {
  const issues: RuleIssue[] = [];
  const checked = checkCondition(condition, 'condition', issues);
  if (!checked) return unknown;
  const path = parsePath(checked.path);
  if (typeof path === 'string') return unknown;
  const { op, value } = checked;
  const at = (args: JsonObject) => readPath(args, path);
  const same = (expected: string) => (actual: unknown) =>
    actual !== undefined && canonicalOrNull(actual) === expected;
  switch (op) {
    case 'exists': {
      const wanted = value !== false;
      return (args) => ((at(args) !== undefined) === wanted ? 'yes' : 'no');
    }
    case 'equals': {
      const equal = same(canonicalJson(value));
      return (args) => (equal(at(args)) ? 'yes' : 'no');
    }
    case 'not-equals': {
      const equal = same(canonicalJson(value));
      return (args) => (equal(at(args)) ? 'no' : 'yes');
    }
    case 'in': {
      const allowed = new Set((value as JsonValue[]).map((item) => canonicalJson(item)));
      return (args) => {
        const actual = at(args);
        return actual !== undefined && allowed.has(canonicalOrNull(actual) ?? '') ? 'yes' : 'no';
      };
    }
    case 'starts-with': {
      const prefix = value as string;
      return (args) => {
        const actual = at(args);
        return typeof actual === 'string' && actual.startsWith(prefix) ? 'yes' : 'no';
      };
    }
    case 'matches': {
      const pattern = new RegExp(value as string, 'u');
      return (args) => {
        const actual = at(args);
        if (typeof actual !== 'string') return 'no';
        if (actual.length > MAX_MATCH_INPUT) return 'unknown';
        return pattern.test(actual) ? 'yes' : 'no';
      };
    }
    case 'range': {
      const { min, max } = value as { min?: number; max?: number };
      return (args) => {
        const actual = at(args);
        if (typeof actual !== 'number' || !Number.isFinite(actual)) return 'no';
        return (min === undefined || actual >= min) && (max === undefined || actual <= max) ? 'yes' : 'no';
      };
    }
    case 'under': {
      const folder = normalizePath(value as string) as string;
      return (args) => {
        const actual = at(args);
        if (typeof actual !== 'string') return 'no';
        if (actual.length > MAX_MATCH_INPUT) return 'unknown';
        // A relative or encoded path resolves somewhere only the server knows: cannot tell.
        const path = normalizePath(actual);
        if (path === undefined) return 'unknown';
        return isUnder(path, folder) ? 'yes' : 'no';
      };
    }
  }
}

function canonicalOrNull(value: unknown): string | null {
  try {
    return canonicalJson(value);
  } catch {
    // Not JSON (a NaN from a host that skipped validation): equal to nothing a rule can name.
    return null;
  }
}

/** How a rule applies to a call: not at all, surely, or only because a condition could not be evaluated. */
export function ruleApplies(
  compiled: CompiledRule,
  caller: Caller,
  serverId: string,
  toolName: string,
  args: JsonObject,
  at: number = Date.now(),
): 'no' | 'yes' | 'cautiously' {
  const { rule } = compiled;
  if (rule.expiresAt !== undefined && rule.expiresAt <= at) return 'no';
  if (!ruleCoversCaller(rule, caller)) return 'no';
  if (rule.server !== ANY && rule.server !== serverId) return 'no';
  if (!compiled.coversTool(toolName)) return 'no';
  let uncertain = false;
  for (const condition of compiled.conditions) {
    const truth = condition(args);
    if (truth === 'no') return 'no';
    if (truth === 'unknown') uncertain = true;
  }
  if (!uncertain) return 'yes';
  return rule.verdict === 'allow' ? 'no' : 'cautiously';
}

/** The rule that decides a call, if any (see the file comment for the order). */
export function chooseRule(
  rules: readonly CompiledRule[],
  caller: Caller,
  serverId: string,
  toolName: string,
  args: JsonObject,
  at: number = Date.now(),
): { rule: PolicyRule; cautiously: boolean } | undefined {
  const matching: { compiled: CompiledRule; cautiously: boolean }[] = [];
  for (const compiled of rules) {
    const applies = ruleApplies(compiled, caller, serverId, toolName, args, at);
    if (applies !== 'no') matching.push({ compiled, cautiously: applies === 'cautiously' });
  }
  const denies = matching.filter((m) => m.compiled.rule.verdict === 'deny');
  const pool = denies.length > 0 ? denies : matching;
  pool.sort(
    (a, b) =>
      b.compiled.specificity - a.compiled.specificity ||
      placeOf(a.compiled.rule) - placeOf(b.compiled.rule) ||
      severity(b.compiled.rule.verdict) - severity(a.compiled.rule.verdict) ||
      a.compiled.rule.createdAt - b.compiled.rule.createdAt ||
      (a.compiled.rule.id < b.compiled.rule.id ? -1 : 1),
  );
  const chosen = pool[0];
  return chosen ? { rule: chosen.compiled.rule, cautiously: chosen.cautiously } : undefined;
}

/** A rule's place in the person's list; rules stored before there was a list come after it. */
function placeOf(rule: PolicyRule): number {
  return rule.position ?? Number.MAX_SAFE_INTEGER;
}

function severity(verdict: Verdict): number {
  return verdict === 'deny' ? 2 : verdict === 'ask' ? 1 : 0;
}

/** A rule as a person reads it: `"delete_file" on "files" when path starts with "/etc"`. */
export function describeRule(rule: Pick<PolicyRule, 'server' | 'tool' | 'when' | 'caller'>): string {
  const tool =
    rule.tool === ANY
      ? 'every tool'
      : isToolPattern(rule.tool)
        ? `tools named like "${rule.tool}"`
        : `"${rule.tool}"`;
  const server = rule.server === ANY ? 'every server' : `"${rule.server}"`;
  const conditions = Array.isArray(rule.when)
    ? rule.when.map((c: unknown) =>
        isRecord(c) ? describeCondition(c as unknown as ArgumentCondition) : 'an unreadable condition',
      )
    : [];
  return `${tool} on ${server}${describeRuleCaller(rule.caller)}${
    conditions.length ? ` when ${conditions.join(' and ')}` : ''
  }`;
}

/** " for the web site https://a.example", " for every web site", or nothing when the rule names none. */
function describeRuleCaller(caller: RuleCaller | undefined): string {
  if (!caller) return '';
  if (caller.label !== undefined) return ` for ${describeCaller(caller)}`;
  const every = {
    person: 'you',
    host: 'the app',
    site: 'every web site',
    'mcp-app': 'every MCP App',
    agent: "the browser's agent on every page",
  };
  return ` for ${every[caller.kind]}`;
}

function describeCondition(condition: ArgumentCondition): string {
  const shown = (value: unknown) => {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  };
  switch (condition.op) {
    case 'exists':
      return `${condition.path} is ${condition.value === false ? 'absent' : 'present'}`;
    case 'equals':
      return `${condition.path} is ${shown(condition.value)}`;
    case 'not-equals':
      return `${condition.path} is not ${shown(condition.value)}`;
    case 'in':
      return `${condition.path} is one of ${shown(condition.value)}`;
    case 'starts-with':
      return `${condition.path} starts with ${shown(condition.value)}`;
    case 'matches':
      return `${condition.path} matches /${String(condition.value)}/`;
    case 'range': {
      const { min, max } = (isRecord(condition.value) ? condition.value : {}) as {
        min?: unknown;
        max?: unknown;
      };
      if (min !== undefined && max !== undefined) return `${condition.path} is between ${min} and ${max}`;
      return min !== undefined
        ? `${condition.path} is at least ${min}`
        : `${condition.path} is at most ${max}`;
    }
    case 'under':
      return `${condition.path} is under ${shown(condition.value)}`;
    default:
      return `${String(condition.path)} (unreadable condition)`;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonValue(value: unknown, depth: number): value is JsonValue {
  if (depth > 32) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every((item) => isJsonValue(item, depth + 1));
}
