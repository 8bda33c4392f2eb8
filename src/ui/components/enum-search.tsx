/**
 * A choice among very many values (an enum of 100,000): a search box with a short list of matches
 * instead of a <select> with every value, so the form stays fast whatever a schema lists. The ARIA
 * combobox pattern: type to filter, arrows move through the matches, Enter picks, Escape closes the
 * list (and only the list: a dialog around it stays open). How many values match is announced; what
 * is chosen is always shown apart from what is being typed.
 */

import { useSignal } from '@preact/signals';
import { useMemo } from 'preact/hooks';

/** Above this many values a <select> becomes this search. */
export const ENUM_SEARCH_THRESHOLD = 200;
/** Matches listed at once: type more to narrow. */
export const ENUM_MATCHES_SHOWN = 50;
/** Longer labels are cut in the list (the chosen value is sent whole). */
const LABEL_MAX = 200;

export interface EnumChoice {
  value: unknown;
  label: string;
}

/** The indexes of the first `shown` labels containing `query` (case-insensitive), and how many do. */
export function findMatches(
  lowered: readonly string[],
  query: string,
  shown = ENUM_MATCHES_SHOWN,
): { first: number[]; total: number } {
  const needle = query.trim().toLowerCase();
  if (needle === '') return { first: lowered.slice(0, shown).map((_, i) => i), total: lowered.length };
  const first: number[] = [];
  let total = 0;
  for (let i = 0; i < lowered.length; i++)
    if (lowered[i]!.includes(needle)) {
      total++;
      if (first.length < shown) first.push(i);
    }
  return { first, total };
}

const cut = (label: string) => (label.length > LABEL_MAX ? `${label.slice(0, LABEL_MAX)}…` : label);

export function EnumSearch({
  id,
  options,
  chosen,
  onChange,
  required,
  describedBy,
}: {
  id: string;
  options: readonly EnumChoice[];
  /** Index of the current value among `options`, or -1. */
  chosen: number;
  onChange: (next: unknown) => void;
  required: boolean;
  describedBy: string | undefined;
}) {
  const query = useSignal('');
  const open = useSignal(false);
  const active = useSignal(0);
  const lowered = useMemo(() => options.map((option) => option.label.toLowerCase()), [options]);
  const { first, total } = useMemo(() => findMatches(lowered, query.value), [lowered, query.value]);
  const listId = `${id}-matches`;
  const countId = `${id}-count`;
  const chosenId = `${id}-chosen`;
  const optionId = (position: number) => `${listId}-${position}`;
  const current = Math.min(active.value, first.length - 1);
  const all = options.length.toLocaleString('en');

  const pick = (index: number | undefined) => {
    if (index === undefined) return;
    onChange(options[index]?.value);
    query.value = '';
    open.value = false;
    active.value = 0;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (!open.value) {
        open.value = true;
        return;
      }
      active.value = Math.max(0, Math.min(first.length - 1, current + step));
      return;
    }
    if (event.key === 'Enter' && open.value && first.length > 0) {
      // Enter picks the match; it must not submit the form (or approve a call) as well.
      event.preventDefault();
      pick(first[current]);
      return;
    }
    if (event.key === 'Escape' && open.value) {
      // Closes the list only: the dialog this form may sit in must not read it as "cancel".
      event.preventDefault();
      event.stopPropagation();
      open.value = false;
    }
  };

  const status =
    query.value.trim() === ''
      ? `${all} values: type to search.`
      : `${total.toLocaleString('en')} of ${all} values match${total > first.length ? `; the first ${first.length} are listed, type more to narrow` : ''}.`;

  return (
    <div class="tg-enum-search">
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={open.value}
        aria-controls={listId}
        aria-activedescendant={open.value && current >= 0 ? optionId(current) : undefined}
        aria-describedby={[chosenId, countId, describedBy].filter(Boolean).join(' ')}
        aria-required={required || undefined}
        placeholder="Type to search"
        value={query.value}
        onInput={(event) => {
          query.value = event.currentTarget.value;
          open.value = true;
          active.value = 0;
        }}
        onFocus={() => {
          open.value = true;
        }}
        onBlur={() => {
          open.value = false;
        }}
        onKeyDown={onKeyDown}
      />
      <p id={countId} class="tg-muted" role="status">
        {status}
      </p>
      <div
        id={listId}
        role="listbox"
        aria-label={`Matching values (${first.length} listed)`}
        hidden={!open.value || first.length === 0}
        style={{
          maxHeight: '14em',
          overflowY: 'auto',
          border: '1px solid var(--tg-border)',
          borderRadius: 'var(--tg-radius)',
        }}
      >
        {open.value &&
          first.map((index, position) => (
            <div
              key={index}
              id={optionId(position)}
              role="option"
              // Focus stays in the search box (aria-activedescendant); -1 keeps options out of the tab order.
              tabIndex={-1}
              aria-selected={position === current}
              style={{
                padding: '2px 6px',
                cursor: 'pointer',
                ...(position === current
                  ? {
                      background: 'var(--tg-surface)',
                      outline: '2px solid var(--tg-accent)',
                      outlineOffset: '-2px',
                    }
                  : {}),
              }}
              // mousedown, not click: the input keeps focus, so its blur does not close the list first.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(index);
              }}
            >
              {cut(options[index]!.label)}
            </div>
          ))}
      </div>
      <p id={chosenId} class="tg-muted">
        {chosen === -1 ? (
          'Nothing chosen yet.'
        ) : (
          <>
            Chosen: <strong class="tg-mono">{cut(options[chosen]!.label)}</strong>
          </>
        )}
        {chosen !== -1 && !required && (
          <>
            {' '}
            <button type="button" onClick={() => onChange(undefined)}>
              Clear
            </button>
          </>
        )}
      </p>
    </div>
  );
}
