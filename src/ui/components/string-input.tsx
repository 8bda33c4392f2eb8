/**
 * A string field that shows its value as it is and sends only what the person changed.
 *
 * - Text with a line break gets a text area (a one-line input would show `line oneline two` while
 *   the newlines are sent, and drop them on the first keystroke). Once a text area, always one, so
 *   deleting the last line break does not swap the control under the caret.
 * - Every keystroke is applied to the original text (`applyControlEdit`): characters the control
 *   cannot hold (a `\r`) are kept where the person did not edit.
 * - Hidden characters are named and shown escaped under the field (`HiddenCharactersNote`).
 * - If the browser's control still does not hold the text it was given (a date input empties a
 *   value that is not a date), the field falls back to plain text; if even that fails, it becomes
 *   read-only and points to the JSON view, rather than let an edit change what was not touched.
 */

import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { findHiddenCharacters } from './hidden-characters.js';
import { HiddenCharactersNote } from './hidden-characters-note.js';
import { applyControlEdit, inputView, textareaView } from './preserving-edit.js';

/** Formats with a matching input type; date-time is left as text (datetime-local drops the offset). */
const FORMAT_INPUT: Record<string, 'date' | 'email' | 'url'> = { date: 'date', email: 'email', uri: 'url' };
/** Past this maxLength a field expects prose: a text area from the start. */
const LONG_TEXT = 200;

export interface StringInputProps {
  id: string;
  value: unknown;
  onChange: (next: string | undefined) => void;
  required: boolean;
  describedBy: string | undefined;
  /** The validator found something wrong with the value (the message is in `describedBy`). */
  invalid?: boolean;
  maxLength?: number | undefined;
  format?: string | undefined;
}

type Fidelity = 'typed' | 'plain' | 'read-only';

export function StringInput({
  id,
  value,
  onChange,
  required,
  describedBy,
  invalid,
  maxLength,
  format,
}: StringInputProps) {
  const text = typeof value === 'string' ? value : '';
  const multiline = useRef(false);
  multiline.current ||= /[\r\n]/.test(text) || (maxLength ?? 0) > LONG_TEXT;
  // How far the control can be trusted to hold the text: its own type, plain text, or not at all.
  const fidelity = useSignal<Fidelity>('typed');
  const control = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const view = multiline.current ? textareaView(text) : inputView(text);
  useLayoutEffect(() => {
    const element = control.current;
    if (!element || element.value === view.shown) return;
    fidelity.value = fidelity.value === 'typed' && !multiline.current ? 'plain' : 'read-only';
  });
  const noteId = findHiddenCharacters(text).length > 0 ? `${id}-hidden` : undefined;
  const readOnlyId = `${id}-read-only`;
  const readOnly = fidelity.value === 'read-only';
  const common = {
    id,
    ref: control,
    'aria-describedby':
      [describedBy, noteId, readOnly ? readOnlyId : undefined].filter(Boolean).join(' ') || undefined,
    'aria-required': required || undefined,
    'aria-invalid': invalid || undefined,
    maxLength,
    readOnly,
    spellcheck: false,
    value: view.shown,
    onInput: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => {
      const element = event.currentTarget;
      const next = applyControlEdit(text, view, element.value, element.selectionEnd);
      onChange(next === '' ? undefined : next);
    },
  };
  const type = fidelity.value === 'typed' ? (FORMAT_INPUT[format ?? ''] ?? 'text') : 'text';
  return (
    <>
      {multiline.current ? (
        <textarea {...common} rows={Math.min(10, Math.max(3, view.shown.split('\n').length + 1))} />
      ) : (
        // Preact types <input> per `type` literal; a computed one is narrowed to the text-like shape they share.
        <input {...common} type={type as 'text'} />
      )}
      {readOnly && (
        <p id={readOnlyId} class="tg-error">
          This text cannot be edited here without changing it; edit it in the JSON view.
        </p>
      )}
      {noteId && <HiddenCharactersNote text={text} id={noteId} />}
    </>
  );
}
