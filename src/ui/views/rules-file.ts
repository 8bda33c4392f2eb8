/**
 * Rules as a file a team shares: `{"format": "toolgate-rules", "version": 1, "rules": [...]}`, in
 * the person's list order, without the ids and times that belong to one browser. Reading a file
 * checks every rule before anything is imported, and says where each problem is.
 */

import { checkRule, type PolicyRule } from '../../gate/index.js';

const RULES_FORMAT = 'toolgate-rules';

/** The file's text for these rules (ids, times and positions left out: the list order is kept). */
export function rulesFile(rules: readonly PolicyRule[]): string {
  const shared = rules.map(({ id: _id, createdAt: _c, updatedAt: _u, position: _p, ...rule }) => rule);
  return `${JSON.stringify({ format: RULES_FORMAT, version: 1, rules: shared }, null, 2)}\n`;
}

/** The rules a file holds, each checked; or every problem found, as sentences a person reads. */
export function readRulesFile(
  text: string,
): { ok: true; rules: unknown[] } | { ok: false; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`The file is not JSON (${(error as Error).message}).`] };
  }
  // A bare list of rules is accepted too: what a person might paste from the docs.
  const file = Array.isArray(parsed) ? { format: RULES_FORMAT, version: 1, rules: parsed } : parsed;
  if (typeof file !== 'object' || file === null)
    return { ok: false, problems: ['The file must hold {"format": "toolgate-rules", "rules": [...]}.'] };
  const { format, version, rules } = file as Record<string, unknown>;
  if (format !== RULES_FORMAT)
    return {
      ok: false,
      problems: [`This is not a Toolgate rules file ("format" must be "${RULES_FORMAT}").`],
    };
  if (version !== 1)
    return {
      ok: false,
      problems: [`This rules file is version ${String(version)}; this Toolgate reads version 1.`],
    };
  if (!Array.isArray(rules)) return { ok: false, problems: ['"rules" must be a list of rules.'] };
  if (rules.length === 0) return { ok: false, problems: ['The file holds no rules.'] };
  const problems: string[] = [];
  rules.forEach((rule, index) => {
    // Ids and times from another browser are dropped on import, never refused.
    const isObject = typeof rule === 'object' && rule !== null && !Array.isArray(rule);
    const {
      id: _id,
      createdAt: _c,
      updatedAt: _u,
      position: _p,
      ...fields
    } = (isObject ? rule : {}) as Record<string, unknown>;
    const checked = checkRule(isObject ? fields : rule);
    if (!checked.ok)
      problems.push(
        `Rule ${index + 1}: ${checked.issues.map((issue) => `${issue.field} ${issue.message}`).join('; ')}.`,
      );
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rules };
}
