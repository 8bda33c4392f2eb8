/**
 * A tool that changed since the person last approved it, or since Toolgate first saw it: every changed line whole (scrollable, never
 * cut), the poisoning flags of the new definition next to the lines they concern, and the complete
 * new definition on request. The flags come with the request (`ApprovalRequest.poisoning`), which
 * the gate computes on the definition it is about to call: the new one.
 */

import { type DefinitionChange, type PoisoningFlag, revealInvisible } from '../../gate/index.js';
import type { Tool } from '../../protocol/index.js';
import { ScrollText } from '../components/scroll-text.js';

/** `description, line 7` → `description`: the definition field a diff line is about. */
function baseField(field: string): string {
  const comma = field.indexOf(', line');
  return comma === -1 ? field : field.slice(0, comma);
}

/** A flag belongs to a line when it is about that field or something inside it (an added property). */
function concerns(line: string, flag: PoisoningFlag): boolean {
  const field = baseField(line);
  return flag.field === field || flag.field.startsWith(`${field}.`) || flag.field.startsWith(`${field}[`);
}

function Flags({ flags, label }: { flags: PoisoningFlag[]; label: string }) {
  if (flags.length === 0) return null;
  return (
    <ul class="tg-flags" aria-label={label}>
      {flags.map((flag, index) => (
        <li key={index}>
          {flag.field}: {flag.detail}
        </li>
      ))}
    </ul>
  );
}

/** The new definition as text, hidden characters made visible: what the model will now read. */
function fullText(tool: Tool): string {
  const parts = [`name: ${tool.name}`];
  if (tool.title !== undefined) parts.push(`title: ${tool.title}`);
  if (tool.description !== undefined) parts.push(`description:\n${tool.description}`);
  if (tool.annotations !== undefined) parts.push(`annotations: ${JSON.stringify(tool.annotations, null, 2)}`);
  parts.push(`inputSchema: ${JSON.stringify(tool.inputSchema, null, 2)}`);
  if (tool.outputSchema !== undefined)
    parts.push(`outputSchema: ${JSON.stringify(tool.outputSchema, null, 2)}`);
  return revealInvisible(parts.join('\n\n'));
}

/** What the change weighs, in words: widening is flagged, narrowing said to keep approvals. */
function ChangeWeightNote({ change }: { change: DefinitionChange }) {
  if (change.weight === 'widening')
    return (
      <div class="tg-warning tg-change-weight" data-weight="widening">
        <p>Widening: this change lets the tool accept or do more than before.</p>
        <ul>
          {(change.widening ?? []).map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      </div>
    );
  if (change.weight === 'narrowing')
    return (
      <p class="tg-muted tg-change-weight" data-weight="narrowing">
        Narrowing: this change only narrows or reorders what the tool accepts or does; your approvals still
        hold.
      </p>
    );
  if (change.weight === 'wording')
    return (
      <p class="tg-change-weight" data-weight="wording">
        Wording: what the tool says about itself changed. Read it before you allow it again.
      </p>
    );
  return null;
}

export function DefinitionChangeView({
  change,
  flags,
  tool,
}: {
  change: DefinitionChange;
  flags: PoisoningFlag[];
  tool: Tool;
}) {
  const placed = new Set<PoisoningFlag>();
  const lines = change.changes.map((line) => {
    const own = flags.filter((flag) => !placed.has(flag) && concerns(line.field, flag));
    for (const flag of own) placed.add(flag);
    return { line, own };
  });
  const elsewhere = flags.filter((flag) => !placed.has(flag));
  return (
    <details open class="tg-diff">
      <summary>
        {change.since === 'first-seen'
          ? 'This tool changed since first seen: its definition is not the one Toolgate first saw'
          : 'This tool changed since you last approved it'}
      </summary>
      <ChangeWeightNote change={change} />
      <ul class="tg-diff-lines">
        {lines.map(({ line, own }, index) => (
          <li key={`${line.field}-${index}`}>
            <strong>{line.field}</strong>
            {line.before !== undefined && <ScrollText class="tg-before">− {line.before}</ScrollText>}
            {line.after !== undefined && <ScrollText class="tg-after">+ {line.after}</ScrollText>}
            <Flags flags={own} label={`Warnings about the new ${baseField(line.field)}`} />
          </li>
        ))}
      </ul>
      <Flags flags={elsewhere} label="Warnings about the rest of the new definition" />
      <details class="tg-full-definition">
        <summary>The new definition in full</summary>
        <ScrollText>{fullText(tool)}</ScrollText>
      </details>
    </details>
  );
}
