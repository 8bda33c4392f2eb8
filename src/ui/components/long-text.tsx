/**
 * Text a server sent, shown as text and bounded: the first part at once, the rest only when asked
 * for. Ten megabytes in one <pre> would freeze the page (layout of every line) before the person
 * could even scroll past it.
 */

import { useSignal } from '@preact/signals';

/** Characters shown before "show all": a few screens of text. */
export const TEXT_PREVIEW_CHARS = 20_000;

export function LongText({ text, limit = TEXT_PREVIEW_CHARS }: { text: string; limit?: number }) {
  const showAll = useSignal(false);
  if (text.length <= limit || showAll.value) return <pre class="tg-text">{text}</pre>;
  return (
    <div class="tg-long-text">
      <pre class="tg-text">{`${text.slice(0, limit)}…`}</pre>
      <p class="tg-muted">
        Showing {limit.toLocaleString('en')} of {text.length.toLocaleString('en')} characters (
        {describeSize(text.length)}).{' '}
        <button
          type="button"
          class="tg-link-button"
          onClick={() => {
            showAll.value = true;
          }}
        >
          Show all
        </button>
      </p>
    </div>
  );
}

/** "1.2 MB", "340 KB": a size as a person reads it (UTF-16 code units counted as bytes: a lower bound). */
function describeSize(length: number): string {
  if (length >= 1_000_000) return `${(length / 1_000_000).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(length / 1000))} KB`;
}
