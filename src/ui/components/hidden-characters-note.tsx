/**
 * Under a text field whose value holds hidden characters: a warning line naming them, and a
 * read-only rendering of the whole value in which each one stands as a marked escape (`\u202E`).
 * The rendering replaces the characters, so a bidi override in the value cannot reorder what the
 * person reads here. Renders nothing for ordinary text.
 */

import { findHiddenCharacters, segmentsOf, summarizeHidden } from './hidden-characters.js';

export function HiddenCharactersNote({ text, id }: { text: string; id: string }) {
  const found = findHiddenCharacters(text);
  if (found.length === 0) return null;
  return (
    <div class="tg-hidden-note">
      <p id={id} class="tg-warning">
        Contains {found.length === 1 ? 'a character' : `${found.length} characters`} you would not see in the
        box: {summarizeHidden(found)}. Shown escaped below; sent exactly as proposed.
      </p>
      <pre class="tg-escaped" dir="ltr">
        {segmentsOf(text).map((segment, index) =>
          'text' in segment ? (
            segment.text
          ) : (
            <mark key={index} class="tg-hidden-char" title={segment.hidden.name}>
              {segment.hidden.escape}
            </mark>
          ),
        )}
      </pre>
    </div>
  );
}
