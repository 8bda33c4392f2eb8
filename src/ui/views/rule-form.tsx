/**
 * The rule editor: who (caller), where (server, tool or pattern), when (conditions on arguments),
 * what (allow, ask, deny) and until when (expiry). Every save is first tried on the newest calls of
 * the audit log, so the person sees what the rule would have done ("would have allowed 12 of the
 * last 200 calls") before it takes effect; the policy's own check says what is wrong, field by field.
 */

import { useSignal } from '@preact/signals';
import { useId } from 'preact/hooks';
import { checkRule, type PolicyRule, type RuleInput, type RuleIssue, tryRule } from '../../gate/index.js';
import type { PanelController } from '../../session/index.js';
import { pastCalls } from './past-calls.js';
import {
  type CallerChoice,
  CONDITION_CHOICES,
  type ConditionChoice,
  type ConditionDraft,
  draftToInput,
  emptyCondition,
  type RuleDraft,
} from './rule-draft.js';

const CALLER_CHOICES: { kind: CallerChoice; label: string }[] = [
  { kind: '', label: 'Anyone (an allow covers only you and the app)' },
  { kind: 'person', label: 'You' },
  { kind: 'host', label: 'The app' },
  { kind: 'site', label: 'A web site' },
  { kind: 'mcp-app', label: 'An MCP App' },
  { kind: 'agent', label: "The browser's agent (a model)" },
];

const DID = { allow: 'allowed', ask: 'asked you about', deny: 'denied' } as const;

/** "This rule would have allowed 3 of the last 20 calls (it matches 4; other rules decide 1 first)." */
function trialSentence(
  verdict: PolicyRule['verdict'],
  trial: { total: number; matched: number; decided: number },
): string {
  if (trial.total === 0) return 'The audit log holds no calls yet to test this rule on.';
  const others = trial.matched - trial.decided;
  return `This rule would have ${DID[verdict]} ${trial.decided} of the last ${trial.total} call${
    trial.total === 1 ? '' : 's'
  }${others > 0 ? ` (it matches ${trial.matched}; other rules decide ${others} of them first)` : ''}.`;
}

/** The candidate as tryRule sees it: an edit keeps its place, a new rule goes to the end. */
function candidateOf(input: RuleInput, rules: readonly PolicyRule[]): PolicyRule {
  const existing = rules.find((rule) => rule.id === input.id);
  const end = rules.reduce((last, rule) => Math.max(last, rule.position ?? -1), rules.length - 1) + 1;
  return {
    ...input,
    id: input.id ?? 'new rule',
    position: existing?.position ?? end,
    createdAt: existing?.createdAt ?? Date.now(),
    updatedAt: Date.now(),
  };
}

/** What a rule would have done on the newest calls of the audit log, as a sentence. */
export async function trialFor(
  controller: PanelController,
  input: RuleInput,
  rules: readonly PolicyRule[],
): Promise<string> {
  try {
    const { auditLog } = await controller.ready;
    if (!auditLog) return 'There is no audit log here, so there are no past calls to test this rule on.';
    return trialSentence(input.verdict, tryRule(candidateOf(input, rules), rules, await pastCalls(auditLog)));
  } catch (error) {
    return `The audit log could not be read to test this rule: ${(error as Error).message}`;
  }
}

interface RuleFormProps {
  controller: PanelController;
  initial: RuleDraft;
  /** The saved rules (the candidate is tried beside them). */
  rules: readonly PolicyRule[];
  onSaved(rule: PolicyRule, trial: string): void;
  onCancel(): void;
}

export function RuleForm({ controller, initial, rules, onSaved, onCancel }: RuleFormProps) {
  const draft = useSignal<RuleDraft>(initial);
  const issues = useSignal<RuleIssue[]>([]);
  const trial = useSignal('');
  const busy = useSignal(false);
  const id = useId();
  const servers = controller.servers.value;
  const d = draft.value;
  const set = (change: Partial<RuleDraft>) => {
    draft.value = { ...draft.value, ...change };
  };
  const setCondition = (index: number, change: Partial<ConditionDraft>) =>
    set({ conditions: d.conditions.map((c, i) => (i === index ? { ...c, ...change } : c)) });
  const toolNames = [
    ...new Set(
      servers.filter((s) => d.server === '*' || s.id === d.server).flatMap((s) => s.tools.map((t) => t.name)),
    ),
  ];

  /** The checked rule, or undefined after showing what is wrong. */
  const checked = (): RuleInput | undefined => {
    const { input, issues: unread } = draftToInput(draft.value);
    const result = checkRule(input);
    const all = [...unread, ...(result.ok ? [] : result.issues)];
    issues.value = all;
    return all.length === 0 && result.ok
      ? { ...result.rule, ...(input.id ? { id: input.id } : {}) }
      : undefined;
  };

  const runTrial = (input: RuleInput) => trialFor(controller, input, rules);

  const test = async () => {
    const input = checked();
    if (!input) return;
    busy.value = true;
    trial.value = await runTrial(input);
    busy.value = false;
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const input = checked();
    if (!input) return;
    busy.value = true;
    // Tried before it is saved: the person reads what it would have done in the status.
    const said = await runTrial(input);
    trial.value = said;
    try {
      onSaved(await controller.rules.save(input), said);
    } catch (error) {
      issues.value = [{ field: 'rule', message: (error as Error).message }];
    } finally {
      busy.value = false;
    }
  };

  const field = (name: string) => `${id}-${name}`;
  return (
    <form class="tg-rule-form" aria-labelledby={field('title')} onSubmit={(event) => void save(event)}>
      <h3 id={field('title')}>{d.id ? 'Edit rule' : 'New rule'}</h3>
      <div class="tg-rule-grid">
        <label for={field('name')}>Name</label>
        <input
          id={field('name')}
          value={d.name}
          placeholder="e.g. Small payments"
          onInput={(e) => set({ name: e.currentTarget.value })}
        />
        <label for={field('verdict')}>Effect</label>
        <select
          id={field('verdict')}
          value={d.verdict}
          onChange={(e) => set({ verdict: e.currentTarget.value as RuleDraft['verdict'] })}
        >
          <option value="allow">Allow without asking</option>
          <option value="ask">Ask me</option>
          <option value="deny">Deny</option>
        </select>
        <label for={field('caller')}>Caller</label>
        <select
          id={field('caller')}
          value={d.callerKind}
          onChange={(e) => set({ callerKind: e.currentTarget.value as CallerChoice })}
        >
          {CALLER_CHOICES.map((choice) => (
            <option key={choice.kind} value={choice.kind}>
              {choice.label}
            </option>
          ))}
        </select>
        {d.callerKind !== '' && d.callerKind !== 'person' && (
          <>
            <label for={field('caller-label')}>Which one (origin or name; empty for every one)</label>
            <input
              id={field('caller-label')}
              value={d.callerLabel}
              onInput={(e) => set({ callerLabel: e.currentTarget.value })}
            />
          </>
        )}
        <label for={field('server')}>Server (id, or * for every server)</label>
        <input
          id={field('server')}
          list={field('servers')}
          value={d.server}
          onInput={(e) => set({ server: e.currentTarget.value })}
        />
        <datalist id={field('servers')}>
          {servers.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </datalist>
        <label for={field('tool')}>Tool (name, a pattern such as read_*, or * for every tool)</label>
        <input
          id={field('tool')}
          list={field('tools')}
          value={d.tool}
          onInput={(e) => set({ tool: e.currentTarget.value })}
        />
        <datalist id={field('tools')}>
          {toolNames.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      <fieldset>
        <legend>Conditions on arguments (all must hold)</legend>
        {d.conditions.length === 0 && <p class="tg-help">None: the rule covers every call of the tool.</p>}
        {d.conditions.map((condition, index) => (
          <ConditionRow
            key={index}
            index={index}
            condition={condition}
            idBase={field(`c${index}`)}
            onChange={(change) => setCondition(index, change)}
            onRemove={() => set({ conditions: d.conditions.filter((_, i) => i !== index) })}
          />
        ))}
        <button type="button" onClick={() => set({ conditions: [...d.conditions, emptyCondition()] })}>
          Add condition
        </button>
        <p class="tg-help">Values read as JSON when they can: 42 is a number, "42" is text.</p>
      </fieldset>
      <div class="tg-rule-grid">
        <label for={field('expires')}>Expires (empty: never)</label>
        <input
          id={field('expires')}
          type="datetime-local"
          value={d.expires}
          onInput={(e) => set({ expires: e.currentTarget.value })}
        />
        <label for={field('note')}>Note</label>
        <input id={field('note')} value={d.note} onInput={(e) => set({ note: e.currentTarget.value })} />
      </div>
      {issues.value.length > 0 && (
        <div role="alert" class="tg-error">
          <p>This rule cannot be saved yet:</p>
          <ul>
            {issues.value.map((issue, index) => (
              <li key={index}>
                {issue.field} {issue.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p role="status" class="tg-rule-trial">
        {trial.value}
      </p>
      <div class="tg-rule-actions">
        <button type="button" disabled={busy.value} onClick={() => void test()}>
          Test on past calls
        </button>
        <button type="submit" class="tg-primary" disabled={busy.value}>
          Save rule
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ConditionRow({
  index,
  condition,
  idBase,
  onChange,
  onRemove,
}: {
  index: number;
  condition: ConditionDraft;
  idBase: string;
  onChange(change: Partial<ConditionDraft>): void;
  onRemove(): void;
}) {
  const n = index + 1;
  const { op } = condition;
  return (
    <fieldset class="tg-rule-condition" aria-label={`Condition ${n}`}>
      <label for={`${idBase}-path`}>Argument {n}</label>
      <input
        id={`${idBase}-path`}
        value={condition.path}
        placeholder="e.g. path or options.mode"
        onInput={(e) => onChange({ path: e.currentTarget.value })}
      />
      <label for={`${idBase}-op`}>Test {n}</label>
      <select
        id={`${idBase}-op`}
        value={op}
        onChange={(e) => onChange({ op: e.currentTarget.value as ConditionChoice })}
      >
        {CONDITION_CHOICES.map((choice) => (
          <option key={choice.op} value={choice.op}>
            {choice.label}
          </option>
        ))}
      </select>
      {op === 'range' ? (
        <>
          <label for={`${idBase}-min`}>From {n}</label>
          <input
            id={`${idBase}-min`}
            inputMode="decimal"
            value={condition.min}
            onInput={(e) => onChange({ min: e.currentTarget.value })}
          />
          <label for={`${idBase}-max`}>To {n}</label>
          <input
            id={`${idBase}-max`}
            inputMode="decimal"
            value={condition.max}
            onInput={(e) => onChange({ max: e.currentTarget.value })}
          />
        </>
      ) : (
        op !== 'exists' && (
          <>
            <label for={`${idBase}-value`}>
              {op === 'in' ? `Values ${n} (comma-separated)` : op === 'under' ? `Folder ${n}` : `Value ${n}`}
            </label>
            <input
              id={`${idBase}-value`}
              value={condition.value}
              placeholder={op === 'under' ? '/home/me/notes' : op === 'matches' ? '^report-' : ''}
              onInput={(e) => onChange({ value: e.currentTarget.value })}
            />
          </>
        )
      )}
      <button type="button" onClick={onRemove} aria-label={`Remove condition ${n}`}>
        Remove
      </button>
    </fieldset>
  );
}
