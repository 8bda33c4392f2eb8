/**
 * Editing a string through a browser control without changing what the person did not touch.
 *
 * A control does not always hold the text it is given: a text area turns `\r\n` and `\r` into `\n`,
 * a one-line input drops line breaks. Sending the control's value after one typed character would
 * silently send those changes too. Instead the edit is found (what changed between what the control
 * showed and what it holds now, placed by the caret) and applied to the original text, so every
 * character outside the edit is kept exactly as it was proposed.
 */

/** What a control shows for a text, and where each shown position comes from in the original. */
export interface ControlView {
  shown: string;
  /** `origin[i]`: the original index where shown position `i` starts; `origin[shown.length]` is the end. */
  origin: number[];
}

/** A one-line input given text without line breaks: shown as it is. */
export function inputView(text: string): ControlView {
  return { shown: text, origin: Array.from({ length: text.length + 1 }, (_, index) => index) };
}

/** A text area: its value normalizes `\r\n` and lone `\r` to `\n` (the HTML spec's API value). */
export function textareaView(text: string): ControlView {
  let shown = '';
  const origin: number[] = [];
  for (let index = 0; index < text.length; ) {
    origin.push(index);
    if (text[index] === '\r') {
      shown += '\n';
      index += text[index + 1] === '\n' ? 2 : 1;
    } else {
      shown += text[index];
      index++;
    }
  }
  origin.push(text.length);
  return { shown, origin };
}

/**
 * The original text with the person's edit applied: the control went from `view.shown` to
 * `after`; `caret` (the control's selectionEnd after the edit) says where the typed text ends,
 * which places an edit among repeated characters where the person made it.
 */
export function applyControlEdit(
  original: string,
  view: ControlView,
  after: string,
  caret?: number | null,
): string {
  const before = view.shown;
  if (after === before) return original;
  const shortest = Math.min(before.length, after.length);
  let commonPrefix = 0;
  while (commonPrefix < shortest && before[commonPrefix] === after[commonPrefix]) commonPrefix++;
  let prefix: number;
  let suffix: number;
  const tail = typeof caret === 'number' && caret >= 0 && caret <= after.length ? after.length - caret : -1;
  if (tail >= 0 && tail <= before.length && before.endsWith(after.slice(after.length - tail))) {
    // Everything after the caret is unchanged text: the edit ends there.
    suffix = tail;
    prefix = Math.min(commonPrefix, after.length - suffix, before.length - suffix);
  } else {
    prefix = commonPrefix;
    suffix = 0;
    const room = shortest - prefix;
    while (suffix < room && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  }
  const start = view.origin[prefix]!;
  const end = view.origin[before.length - suffix]!;
  return original.slice(0, start) + after.slice(prefix, after.length - suffix) + original.slice(end);
}
