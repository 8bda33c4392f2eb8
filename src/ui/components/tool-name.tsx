/**
 * A tool's name as the person reads it wherever they decide about it (the approval dialog,
 * Activity, the audit log, Approvals, the extension's Sites): the real name, never the server's
 * title, since rules, grants and site access work by name; any hidden character in it written as
 * its escape (`\u200B`), so two names that render alike read differently.
 */

import { escapeHidden, findHiddenCharacters, summarizeHidden } from './hidden-characters.js';

/** `name` with hidden characters as escapes (for text that is not markup: labels, status lines). */
export const visibleToolName = (name: string): string => escapeHidden(name);

export function ToolName({ name }: { name: string }) {
  const hidden = findHiddenCharacters(name);
  return (
    <code
      class="tg-tool-name"
      {...(hidden.length > 0
        ? { title: `The name holds characters you would not see: ${summarizeHidden(hidden)}` }
        : {})}
    >
      {escapeHidden(name)}
    </code>
  );
}
