/**
 * The Rules tab: the person's rules in the order that breaks ties, each with what it does, to edit,
 * test, move (buttons, so the keyboard can) and delete; a new rule; and the list as a JSON file to
 * share, or a file to import (checked whole first: a bad file changes nothing and says why).
 * Re-read whenever the policy changes (also from another tab or the extension's worker).
 */

import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { describeRule, type PolicyRule } from '../../gate/index.js';
import type { PanelController } from '../../session/index.js';
import { emptyDraft, type RuleDraft, ruleToDraft } from './rule-draft.js';
import { RuleForm, trialFor } from './rule-form.js';
import { readRulesFile, rulesFile } from './rules-file.js';

const RULES_CSS =
  '.tg-rules{list-style:none;padding:0;margin:var(--tg-s2) 0}.tg-rules>li{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s2);margin-bottom:var(--tg-s2)}.tg-rules p{margin:2px 0}.tg-rule-buttons,.tg-rule-actions,.tg-rules-share{display:flex;flex-wrap:wrap;gap:var(--tg-s1);margin-top:var(--tg-s1)}.tg-rule-form{border:1px solid var(--tg-border);border-radius:var(--tg-radius);padding:var(--tg-s2);margin:var(--tg-s2) 0}.tg-rule-grid{display:grid;grid-template-columns:minmax(0,1fr);gap:2px var(--tg-s1);max-width:40em}.tg-rule-grid label{margin-top:var(--tg-s1)}.tg-rule-form input,.tg-rule-form select{max-width:100%;min-width:0;box-sizing:border-box}.tg-rule-condition{display:flex;flex-wrap:wrap;gap:var(--tg-s1);align-items:center;margin-bottom:var(--tg-s1)}.tg-rule-form fieldset{margin:var(--tg-s2) 0;min-width:0}';

const EFFECT = { allow: 'Allows', ask: 'Asks about', deny: 'Denies' } as const;

/** How a rule is called wherever it is named (its name, else what it covers). */
export const ruleLabel = (rule: PolicyRule) => rule.name ?? describeRule(rule);

function expiry(rule: PolicyRule, now: number): string {
  if (rule.expiresAt === undefined) return '';
  const when = new Date(rule.expiresAt).toLocaleString();
  return rule.expiresAt <= now ? ` Expired ${when}: it applies to nothing.` : ` Until ${when}.`;
}

export function RulesView({ controller }: { controller: PanelController }) {
  const rules = useSignal<PolicyRule[] | undefined>(undefined);
  const problem = useSignal<string[]>([]);
  const status = useSignal('');
  const editing = useSignal<RuleDraft | undefined>(undefined);
  const section = useRef<HTMLElement>(null);
  // After a move the list re-renders: focus goes back to the button that was pressed.
  const focusNext = useRef<string | undefined>(undefined);
  const version = controller.rememberedVersion.value;

  const load = async () => {
    try {
      rules.value = await controller.rules.list();
    } catch (error) {
      problem.value = [`Your rules could not be read: ${(error as Error).message}`];
    }
  };
  useEffect(() => {
    void load();
  }, [version, controller]);
  useEffect(() => {
    const key = focusNext.current;
    if (!key) return;
    const wanted = section.current?.querySelector<HTMLButtonElement>(`[data-focus="${key}"]`);
    const target = wanted?.disabled
      ? section.current?.querySelector<HTMLButtonElement>(
          `[data-focus="${key.startsWith('up:') ? key.replace('up:', 'down:') : key.replace('down:', 'up:')}"]`,
        )
      : wanted;
    if (target) {
      target.focus();
      focusNext.current = undefined;
    }
  }, [rules.value]);

  const act = async (work: () => Promise<string>) => {
    problem.value = [];
    try {
      status.value = await work();
      await load();
    } catch (error) {
      problem.value = [(error as Error).message];
    }
  };
  const move = (rule: PolicyRule, offset: number) => {
    focusNext.current = `${offset < 0 ? 'up' : 'down'}:${rule.id}`;
    void act(async () => {
      await controller.rules.move(rule.id, offset);
      return `Moved “${ruleLabel(rule)}” ${offset < 0 ? 'up' : 'down'}.`;
    });
  };
  const remove = (rule: PolicyRule) =>
    void act(async () => {
      await controller.rules.remove(rule.id);
      return `Deleted the rule “${ruleLabel(rule)}”.`;
    });
  const exportRules = () => {
    const list = rules.value ?? [];
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([rulesFile(list)], { type: 'application/json' }));
    link.download = 'toolgate-rules.json';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    status.value = `Exported ${list.length} rule${list.length === 1 ? '' : 's'} as toolgate-rules.json.`;
  };
  const importFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    problem.value = [];
    const read = readRulesFile(await file.text());
    if (!read.ok) {
      status.value = '';
      problem.value = [`Nothing was imported from ${file.name}; your rules are unchanged.`, ...read.problems];
      return;
    }
    await act(async () => {
      const saved = await controller.rules.importRules(read.rules);
      return `Imported ${saved.length} rule${saved.length === 1 ? '' : 's'} from ${file.name} at the end of your list.`;
    });
  };

  const list = rules.value;
  const now = Date.now();
  return (
    <section aria-labelledby="tg-rules-title" ref={section}>
      <style>{RULES_CSS}</style>
      <h2 id="tg-rules-title">Rules</h2>
      <p class="tg-help">
        Rules decide calls before anyone is asked. A deny always wins; otherwise the most specific rule
        decides (an exact tool over a pattern over every tool, a server, conditions, a named caller), and
        between equally specific rules the one higher in this list.
      </p>
      {problem.value.length > 0 && (
        <div class="tg-error" role="alert">
          {problem.value.map((line, index) => (
            <p key={index}>{line}</p>
          ))}
        </div>
      )}
      <p role="status" class="tg-muted">
        {status.value}
      </p>
      {editing.value ? (
        <RuleForm
          key={editing.value.id ?? 'new'}
          controller={controller}
          initial={editing.value}
          rules={list ?? []}
          onSaved={(rule, trial) => {
            editing.value = undefined;
            status.value = `Saved the rule “${ruleLabel(rule)}”. ${trial}`;
            void load();
          }}
          onCancel={() => {
            editing.value = undefined;
          }}
        />
      ) : (
        <button type="button" class="tg-primary" onClick={() => (editing.value = emptyDraft())}>
          New rule
        </button>
      )}
      {list === undefined && problem.value.length === 0 && <p class="tg-muted">Loading…</p>}
      {list?.length === 0 && (
        <p class="tg-empty">No rules yet: every call is decided by your approvals and defaults.</p>
      )}
      {list && list.length > 0 && (
        <ol class="tg-rules" aria-label="Your rules, in order">
          {list.map((rule, index) => {
            const label = ruleLabel(rule);
            return (
              <li key={rule.id} data-rule={rule.id}>
                <p>
                  <strong>{label}</strong>
                </p>
                <p>
                  {EFFECT[rule.verdict]} {describeRule(rule)}.{expiry(rule, now)}
                  {rule.note ? ` ${rule.note}` : ''}
                </p>
                <div class="tg-rule-buttons">
                  <button
                    type="button"
                    data-focus={`up:${rule.id}`}
                    aria-label={`Move up: ${label}`}
                    disabled={index === 0}
                    onClick={() => move(rule, -1)}
                  >
                    Move up
                  </button>
                  <button
                    type="button"
                    data-focus={`down:${rule.id}`}
                    aria-label={`Move down: ${label}`}
                    disabled={index === list.length - 1}
                    onClick={() => move(rule, 1)}
                  >
                    Move down
                  </button>
                  <button
                    type="button"
                    aria-label={`Edit: ${label}`}
                    onClick={() => (editing.value = ruleToDraft(rule))}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    aria-label={`Test: ${label}`}
                    onClick={() =>
                      void trialFor(controller, rule, list).then((said) => {
                        status.value = `“${label}”: ${said}`;
                      })
                    }
                  >
                    Test
                  </button>
                  <button type="button" aria-label={`Delete: ${label}`} onClick={() => remove(rule)}>
                    Delete
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <h3>Share</h3>
      <div class="tg-rules-share">
        <button type="button" disabled={!list || list.length === 0} onClick={exportRules}>
          Export rules
        </button>
        <label>
          Import rules from a file{' '}
          <input
            type="file"
            accept=".json,application/json"
            onChange={(event) => void importFile(event.currentTarget)}
          />
        </label>
      </div>
    </section>
  );
}
