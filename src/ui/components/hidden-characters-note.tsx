/**
 * Under a text field whose value holds hidden characters: a warning line naming them, and a
 * read-only rendering of the whole value in which each one stands as a marked escape (`\u202E`).
 * The rendering replaces the characters, so a bidi override in the value cannot reorder what the
 * person reads here. Renders nothing for ordinary text.
 */

import type { ComponentChildren } from 'preact';
import { findHiddenCharacters, segmentsOf, summarizeHidden } from './hidden-characters.js';
import { ScrollText } from './scroll-text.js';

/** Marked escapes past this many are written as plain escapes: a hostile value cannot flood the DOM. */
const MAX_MARKS = 500;

/** The text with each hidden character as a marked escape (plain text runs stay text nodes). */
function marked(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let marks = 0;
  let plain = '';
  for (const segment of segmentsOf(text)) {
    if ('text' in segment) plain += segment.text;
    else if (marks >= MAX_MARKS) plain += segment.hidden.escape;
    else {
      if (plain) out.push(plain);
      plain = '';
      out.push(
        <mark key={marks} class="tg-hidden-char" title={segment.hidden.name}>
          {segment.hidden.escape}
        </mark>,
      );
      marks++;
    }
  }
  if (plain) out.push(plain);
  return out;
}

export function HiddenCharactersNote({ text, id }: { text: string; id: string }) {
  const found = findHiddenCharacters(text);
  if (found.length === 0) return null;
  return (
    <div class="tg-hidden-note">
      <p id={id} class="tg-warning">
        Contains {found.length === 1 ? 'a character' : `${found.length} characters`} you would not see in the
        box: {summarizeHidden(found)}. Shown escaped below; sent exactly as proposed.
      </p>
      <ScrollText class="tg-escaped">{marked(text)}</ScrollText>
    </div>
  );
}
