/**
 * What a person should know about a server's tool list, one sentence per problem with its reason:
 * the list is incomplete (pagination stopped, a page failed), tools were left out (no usable
 * definition, invalid x-mcp-header), names break the MCP rules or are used twice. The catalog keeps
 * the details; this only words them, bounded, so a hostile catalog cannot flood the panel.
 */

import type { CatalogSnapshot } from '../client/catalog.js';

/** How many tools a sentence names before it says "and N more". */
export const NAMED_TOOLS = 5;
const LONG_NAME = 60;

/** The warnings of one listing, for the Servers view; empty when the list is whole and clean. */
export function catalogWarnings(serverId: string, snapshot: CatalogSnapshot): string[] {
  const warnings: string[] = [];
  if (snapshot.incomplete)
    warnings.push(`The tool list is incomplete: ${withoutPrefix(serverId, snapshot.incomplete.message)}.`);

  const excluded = snapshot.rejected.map((r) => `${quoted(r.name)} (${r.reason})`);
  if (excluded.length > 0)
    warnings.push(
      `${count(excluded.length, 'tool was', 'tools were')} left out because ${excluded.length === 1 ? 'its definition is' : 'their definitions are'} invalid: ${named(excluded)}.`,
    );

  // One entry's warnings are sentences from the catalog; group the tools under each kind.
  const byKind = new Map<string, string[]>();
  for (const entry of snapshot.entries)
    for (const warning of entry.warnings) {
      const kind = warning.includes('same name') ? 'duplicate' : 'name';
      const list = byKind.get(kind) ?? [];
      const name = quoted(entry.tool.name);
      if (kind === 'duplicate' && list.includes(name)) continue;
      list.push(kind === 'name' ? `${name} (${afterColon(warning)})` : name);
      byKind.set(kind, list);
    }
  const badNames = byKind.get('name');
  if (badNames)
    warnings.push(
      `${count(badNames.length, 'tool name breaks', 'tool names break')} the MCP naming rules: ${named(badNames)}.`,
    );
  const twins = byKind.get('duplicate');
  if (twins)
    warnings.push(
      `More than one tool is listed as ${named(twins)}: Toolgate refuses calls to ${twins.length === 1 ? 'that name' : 'those names'} while the definitions differ.`,
    );
  return warnings;
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
  return `"${visible.length > LONG_NAME ? `${visible.slice(0, LONG_NAME)}…` : visible}"`;
}
