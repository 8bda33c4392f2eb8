/**
 * What a person should know about a server's tool list, one sentence per problem with its reason:
 * the list is incomplete (pagination stopped, a page failed), tools were left out (no usable
 * definition, invalid x-mcp-header), names break the MCP rules or are used twice. The catalog keeps
 * the details; this only words them, bounded, so a hostile catalog cannot flood the panel.
 */

import type { CatalogSnapshot } from '../client/index.js';

/** How many tools a sentence names before it says "and N more". */
export const NAMED_TOOLS = 5;
const LONG_NAME = 60;
/** A reason can list every bad property of a schema: cut it in the panel. */
const LONG_REASON = 300;

/** The warnings of one listing, for the Servers view; empty when the list is whole and clean. */
export function catalogWarnings(serverId: string, snapshot: CatalogSnapshot): string[] {
  const warnings: string[] = [];
  if (snapshot.incomplete)
    warnings.push(`The tool list is incomplete: ${withoutPrefix(serverId, snapshot.incomplete.message)}.`);

  const excluded = snapshot.rejected;
  if (excluded.length > 0)
    warnings.push(
      `${count(excluded.length, 'tool was', 'tools were')} left out because ${excluded.length === 1 ? 'its definition is' : 'their definitions are'} invalid: ${byReason(excluded)}.`,
    );

  // An entry's warnings are the catalog's sentences: bad names (with the rule broken) and duplicates.
  const badNames: Problem[] = [];
  const twins = new Set<string>();
  for (const entry of snapshot.entries)
    for (const warning of entry.warnings) {
      const name = quoted(entry.tool.name);
      if (!warning.includes('same name'))
        badNames.push({ name: entry.tool.name, reason: afterColon(warning) });
      else twins.add(name);
    }
  if (badNames.length > 0)
    warnings.push(
      `${count(badNames.length, 'tool name breaks', 'tool names break')} the MCP naming rules: ${byReason(badNames)}.`,
    );
  if (twins.size > 0)
    warnings.push(
      `More than one tool is listed as ${named([...twins])}: Toolgate refuses calls to ${twins.size === 1 ? 'that name' : 'those names'} while the definitions differ.`,
    );
  return warnings;
}

interface Problem {
  name: string;
  reason: string;
}

/** `"a", "b" (reason one); "c" (reason two)`: tools grouped by reason, a few of each and a few reasons. */
function byReason(problems: readonly Problem[]): string {
  const groups = new Map<string, string[]>();
  for (const { name, reason } of problems) {
    const names = groups.get(reason);
    if (names) names.push(quoted(name));
    else groups.set(reason, [quoted(name)]);
  }
  const all = [...groups];
  const shown = all
    .slice(0, NAMED_TOOLS)
    .map(([reason, names]) => `${named(names)} (${cut(reason, LONG_REASON)})`);
  const rest = all.slice(NAMED_TOOLS).reduce((sum, [, names]) => sum + names.length, 0);
  return rest > 0
    ? `${shown.join('; ')}; and ${rest.toLocaleString('en')} more for other reasons`
    : shown.join('; ');
}

function withoutPrefix(serverId: string, message: string): string {
  const prefix = `${serverId}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

function afterColon(warning: string): string {
  const colon = warning.indexOf(': ');
  return colon === -1 ? warning : warning.slice(colon + 2);
}

function count(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

function named(items: string[]): string {
  const shown = items.slice(0, NAMED_TOOLS).join(', ');
  const rest = items.length - NAMED_TOOLS;
  return rest > 0 ? `${shown} and ${rest.toLocaleString('en')} more` : shown;
}

/**
 * A tool name as a person can read it: cut when long, and control or format characters (bidi
 * overrides, zero-width ones) written as \u{…} so they cannot disguise the name.
 */
function quoted(name: string): string {
  const visible = name.replace(
    /[\p{Cc}\p{Cf}]/gu,
    (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );
  return `"${cut(visible, LONG_NAME)}"`;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
