/**
 * The rule editor's form state and its translation to a rule: text fields as a person types them
 * (a value, a comma-separated list, a range's two ends, a date) become the JSON the policy checks.
 * Kept apart from the view so each translation is tested on its own.
 */

import type { ArgumentCondition, JsonValue, PolicyRule, RuleInput, RuleIssue } from '../../gate/index.js';

/** The conditions the editor offers, in the words it uses. */
export const CONDITION_CHOICES = [
  { op: 'equals', label: 'equals' },
  { op: 'in', label: 'is one of' },
  { op: 'matches', label: 'matches (regular expression)' },
  { op: 'range', label: 'is a number between' },
  { op: 'under', label: 'is a path under' },
  { op: 'starts-with', label: 'starts with' },
  { op: 'not-equals', label: 'does not equal' },
  { op: 'exists', label: 'is present' },
] as const;

export type ConditionChoice = (typeof CONDITION_CHOICES)[number]['op'];

export interface ConditionDraft {
  path: string;
  op: ConditionChoice;
  /** The value (equals, matches, under, starts with), or the list (one of: comma-separated or JSON). */
  value: string;
  min: string;
  max: string;
}

export type CallerChoice = '' | 'person' | 'host' | 'site' | 'mcp-app' | 'agent';

export interface RuleDraft {
  id?: string;
  name: string;
  verdict: 'allow' | 'ask' | 'deny';
  callerKind: CallerChoice;
  callerLabel: string;
  server: string;
  tool: string;
  conditions: ConditionDraft[];
  /** A `datetime-local` value (local time), or '' for never. */
  expires: string;
  note: string;
}

export const emptyCondition = (): ConditionDraft => ({ path: '', op: 'equals', value: '', min: '', max: '' });

export const emptyDraft = (): RuleDraft => ({
  name: '',
  verdict: 'ask',
  callerKind: '',
  callerLabel: '',
  server: '*',
  tool: '*',
  conditions: [],
  expires: '',
  note: '',
});

/** A typed value: JSON when it reads as JSON (42, true, "x", [1]), else the text itself. */
function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** "a, b, 3" or a JSON list, as the list of values `in` compares. */
function listValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return typedValue(trimmed);
  return trimmed === '' ? [] : trimmed.split(',').map((item) => typedValue(item.trim()));
}

function numberOrIssue(text: string, field: string, issues: RuleIssue[]): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) issues.push({ field, message: 'must be a number' });
  return value;
}

function conditionOf(draft: ConditionDraft, field: string, issues: RuleIssue[]): ArgumentCondition {
  const path = draft.path.trim();
  switch (draft.op) {
    case 'exists':
      return { path, op: 'exists' };
    case 'in':
      return { path, op: 'in', value: listValue(draft.value) as JsonValue };
    case 'range': {
      const min = numberOrIssue(draft.min, `${field}.min`, issues);
      const max = numberOrIssue(draft.max, `${field}.max`, issues);
      return {
        path,
        op: 'range',
        value: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) },
      };
    }
    case 'equals':
    case 'not-equals':
      return { path, op: draft.op, value: typedValue(draft.value) as JsonValue };
    default:
      // matches, under, starts-with: the text as typed.
      return { path, op: draft.op, value: draft.value };
  }
}

/**
 * The rule a draft describes, and what could not be read from it (a range's end that is not a
 * number, a date that is not one). The policy's checkRule says the rest.
 */
export function draftToInput(draft: RuleDraft): { input: RuleInput; issues: RuleIssue[] } {
  const issues: RuleIssue[] = [];
  const when = draft.conditions.map((condition, index) => conditionOf(condition, `when[${index}]`, issues));
  let expiresAt: number | undefined;
  if (draft.expires !== '') {
    expiresAt = new Date(draft.expires).getTime();
    if (!Number.isFinite(expiresAt)) issues.push({ field: 'expiresAt', message: 'is not a date and time' });
  }
  const input: RuleInput = {
    ...(draft.id ? { id: draft.id } : {}),
    verdict: draft.verdict,
    server: draft.server.trim() === '' ? '*' : draft.server.trim(),
    tool: draft.tool.trim() === '' ? '*' : draft.tool.trim(),
    ...(draft.callerKind
      ? {
          caller: {
            kind: draft.callerKind,
            ...(draft.callerLabel.trim() ? { label: draft.callerLabel.trim() } : {}),
          },
        }
      : {}),
    ...(when.length > 0 ? { when } : {}),
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    ...(draft.note.trim() ? { note: draft.note.trim() } : {}),
    ...(expiresAt !== undefined && Number.isFinite(expiresAt) ? { expiresAt } : {}),
  };
  return { input, issues };
}

/** A value as the editor shows it: text that would read back as something else is quoted. */
const typedText = (value: unknown) =>
  typeof value === 'string' && typedValue(value) === value ? value : JSON.stringify(value);

/** A list as "a, b, 3" when that reads back the same, else as JSON. */
function listText(value: unknown): string {
  if (!Array.isArray(value)) return JSON.stringify(value);
  const shown = value.map(typedText).join(', ');
  const back = listValue(shown);
  return JSON.stringify(back) === JSON.stringify(value) ? shown : JSON.stringify(value);
}

/** A `datetime-local` value for a time (local time, to the minute). */
function localDateTime(at: number): string {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(
    date.getMinutes(),
  )}`;
}

/** A saved rule back in the editor's fields. */
export function ruleToDraft(rule: PolicyRule): RuleDraft {
  return {
    id: rule.id,
    name: rule.name ?? '',
    verdict: rule.verdict,
    callerKind: rule.caller?.kind ?? '',
    callerLabel: rule.caller?.label ?? '',
    server: rule.server,
    tool: rule.tool,
    conditions: (rule.when ?? []).map((condition) => {
      const range = (condition.op === 'range' ? condition.value : {}) as { min?: number; max?: number };
      return {
        path: condition.path,
        op: condition.op,
        value:
          condition.op === 'range' || condition.op === 'exists'
            ? ''
            : condition.op === 'in'
              ? listText(condition.value)
              : condition.op === 'equals' || condition.op === 'not-equals'
                ? typedText(condition.value)
                : String(condition.value ?? ''),
        min: range.min !== undefined ? String(range.min) : '',
        max: range.max !== undefined ? String(range.max) : '',
      };
    }),
    expires: rule.expiresAt !== undefined ? localDateTime(rule.expiresAt) : '',
    note: rule.note ?? '',
  };
}
