import { describe, expect, it } from 'vitest';
import { applyControlEdit, inputView, textareaView } from './preserving-edit.js';

describe('textareaView', () => {
  it('shows line breaks as a text area holds them and maps each shown position back', () => {
    const view = textareaView('a\r\nb\rc\n');
    expect(view.shown).toBe('a\nb\nc\n');
    expect(view.origin).toEqual([0, 1, 3, 4, 5, 6, 7]);
  });
});

describe('applyControlEdit', () => {
  it('keeps the newlines of a multi-line command when one character is typed at its end', () => {
    const original = 'line one\nline two\nrm -rf /';
    const view = textareaView(original);
    expect(applyControlEdit(original, view, `${view.shown}x`, view.shown.length + 1)).toBe(
      'line one\nline two\nrm -rf /x',
    );
  });

  it('keeps carriage returns the text area cannot show, wherever the edit is', () => {
    const original = 'one\r\ntwo\rthree';
    const view = textareaView(original);
    // Typed "!" after "two" (shown "one\ntwo!\nthree", caret after the "!").
    const typed = 'one\ntwo!\nthree';
    expect(applyControlEdit(original, view, typed, 8)).toBe('one\r\ntwo!\rthree');
    // Deleted "one" entirely (caret at 0).
    expect(applyControlEdit(original, view, '\ntwo\nthree', 0)).toBe('\r\ntwo\rthree');
  });

  it('places an edit among repeated characters where the caret says it was made', () => {
    const original = 'a\r\n\nb';
    const view = textareaView(original);
    // Backspace after the first line break: the CRLF goes, the LF stays.
    expect(applyControlEdit(original, view, 'a\nb', 1)).toBe('a\nb');
    // Backspace after the second one: the LF goes, the CRLF stays.
    expect(applyControlEdit(original, view, 'a\nb', 2)).toBe('a\r\nb');
  });

  it('replaces a selection and works without a caret', () => {
    const original = 'keep\u202Ethis\r\nand that';
    const view = textareaView(original);
    expect(applyControlEdit(original, view, 'keep\u202Ethis\nand THAT')).toBe('keep\u202Ethis\r\nand THAT');
    expect(applyControlEdit(original, view, 'keep\u202Ethis\nand THAT', 999)).toBe(
      'keep\u202Ethis\r\nand THAT',
    );
  });

  it('changes nothing when the control holds what it showed, and edits plain input text as typed', () => {
    const original = 'x\ry';
    expect(applyControlEdit(original, textareaView(original), 'x\ny', 3)).toBe(original);
    expect(applyControlEdit('abc', inputView('abc'), 'abXc', 3)).toBe('abXc');
    expect(applyControlEdit('abc', inputView('abc'), '', 0)).toBe('');
  });
});
