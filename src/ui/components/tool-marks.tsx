/**
 * What a server says about its tool (its annotations), in the one set of words every view uses:
 * the tool list's marks, the selected tool's detail, the approval dialog and the confirmation of a
 * person's own call. Annotations are never checked: each mark says it is the server's claim, so
 * "Destructive (the server's claim)" reads the same wherever it appears.
 */

import type { ToolAnnotations } from '../../protocol/index.js';

/** How every view qualifies an annotation: the server said it, Toolgate did not check it. */
export const SERVER_CLAIM = "the server's claim";

interface ToolMark {
  /** The mark's colour class (styles.ts). */
  className: string;
  /** The mark as a word: "Read-only", "Destructive", "Open world". */
  label: string;
  /** What the tool says of itself, for a sentence: "This tool says it {says}." */
  says: string;
}

const READ_ONLY: ToolMark = { className: 'tg-mark-read-only', label: 'Read-only', says: 'only reads' };
const DESTRUCTIVE: ToolMark = {
  className: 'tg-mark-destructive',
  label: 'Destructive',
  says: 'may delete or overwrite things',
};
const OPEN_WORLD: ToolMark = {
  className: 'tg-mark-open-world',
  label: 'Open world',
  says: 'reaches outside systems',
};

const IDEMPOTENT: ToolMark = {
  className: 'tg-mark-idempotent',
  label: 'Safe to repeat',
  says: 'does nothing more when called again with the same arguments',
};

/**
 * The marks a tool's annotations claim: Read-only or Destructive (read-only wins, as the MCP
 * specification makes destructiveHint meaningless for a read-only tool), and Open world; with
 * `all` (the tool's detail, where there is room), Safe to repeat too.
 */
export function toolMarks(annotations: ToolAnnotations | undefined, all = false): ToolMark[] {
  const claims = annotations ?? {};
  const marks: ToolMark[] = [];
  if (claims.readOnlyHint === true) marks.push(READ_ONLY);
  else if (claims.destructiveHint === true) marks.push(DESTRUCTIVE);
  if (claims.openWorldHint === true) marks.push(OPEN_WORLD);
  if (all && claims.idempotentHint === true && claims.readOnlyHint !== true) marks.push(IDEMPOTENT);
  return marks;
}

/**
 * One badge per mark. `claimShown`: "(the server's claim)" written beside each label (the detail,
 * a dialog); otherwise it is in the badge's title and read by screen readers only (the tool list).
 */
export function ToolMarks({ marks, claimShown }: { marks: readonly ToolMark[]; claimShown: boolean }) {
  return (
    <>
      {marks.map((mark) => (
        <span key={mark.label} class={`tg-badge ${mark.className}`} title={`${mark.label} (${SERVER_CLAIM})`}>
          {mark.label}
          <span class={claimShown ? 'tg-claimed' : 'tg-visually-hidden'}> ({SERVER_CLAIM})</span>
        </span>
      ))}
    </>
  );
}
