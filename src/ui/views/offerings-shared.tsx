/**
 * What the Resources and Prompts tabs share: each server's listings (loaded when the tab opens,
 * again when the server says its list changed), argument completion as the person types (debounced;
 * an answer to an older value is dropped), and the suggestions under a field.
 */

import { type Signal, useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { CompleteRequestParams } from '../../protocol/index.js';
import type { PanelController, ServerState, SessionOfferings } from '../../session/index.js';

/**
 * After the first page, the rows listed so far are drawn again at most this often: each drawing
 * goes over every row, so one per page would cost a 10,000-row listing twenty growing renders.
 */
const PARTIAL_EVERY_MS = 250;

/** Typing pauses this long before completion is asked: one request per pause, not per key. */
const COMPLETION_DEBOUNCE_MS = 250;

/**
 * A server's listing as the tab shows it: rows appear with the first page (`more` while later pages
 * are on their way, `count` how many so far), and `note` says why it ended early, if it did.
 */
type Listing<T> =
  | { status: 'loading' }
  | { status: 'failed'; error: string }
  | { status: 'ready'; value: T; count: number; more: boolean; note?: string };

/** What a tab's loader hands back: the rows so far, how many, and (at the end) why it stopped early. */
interface Loaded<T> {
  value: T;
  count: number;
  note?: string;
}

/** A tab's loader: shows each page's rows through `show`; resolves with the whole listing. */
export type Loader<T> = (
  offerings: SessionOfferings,
  serverId: string,
  show: (partial: Loaded<T>) => void,
  signal: AbortSignal,
) => Promise<Loaded<T>>;

/**
 * Loads `load(server)` for each connected server `wanted` offers, again on a list change (which
 * stops the listing in flight). `stop(serverId)` keeps the rows listed so far and asks no more.
 */
export function useListings<T>(
  controller: PanelController,
  wanted: (server: ServerState) => boolean,
  load: Loader<T>,
): { servers: ServerState[]; listings: Record<string, Listing<T>>; stop: (serverId: string) => void } {
  const servers = controller.servers.value.filter((server) => server.state === 'connected' && wanted(server));
  const listings = useSignal<Record<string, Listing<T>>>({});
  const running = useRef(new Map<string, AbortController>());
  const key = servers.map((server) => server.id).join('\n');
  useEffect(() => {
    const offerings = controller.offerings;
    if (!offerings) return;
    let live = true;
    const stops: Array<() => void> = [];
    const set = (serverId: string, listing: Listing<T>) => {
      if (live) listings.value = { ...listings.value, [serverId]: listing };
    };
    for (const server of servers) {
      const fetch = () => {
        running.current.get(server.id)?.abort();
        const abort = new AbortController();
        running.current.set(server.id, abort);
        // A listing that was replaced (a list change) or left (the tab closed) shows nothing more.
        const current = () => live && running.current.get(server.id) === abort;
        set(server.id, { status: 'loading' });
        let shownAt = Number.NEGATIVE_INFINITY;
        let pending: Loaded<T> | undefined;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const flush = () => {
          timer = undefined;
          if (pending && current()) set(server.id, { status: 'ready', ...pending, more: true });
          pending = undefined;
          shownAt = performance.now();
        };
        const show = (partial: Loaded<T>) => {
          pending = partial;
          if (timer !== undefined) return;
          const wait = shownAt + PARTIAL_EVERY_MS - performance.now();
          if (wait <= 0) flush();
          else timer = setTimeout(flush, wait);
        };
        const done = () => {
          clearTimeout(timer);
          pending = undefined;
        };
        load(offerings, server.id, show, abort.signal).then(
          (whole) => {
            done();
            if (current()) set(server.id, { status: 'ready', ...whole, more: false });
          },
          (error: unknown) => {
            done();
            if (current())
              set(server.id, { status: 'failed', error: (error as Error).message ?? String(error) });
          },
        );
      };
      fetch();
      try {
        stops.push(offerings.onListChanged(server.id, fetch));
      } catch {
        // The connection went away between the render and now: its listing says so when fetched.
      }
    }
    return () => {
      live = false;
      for (const stop of stops) stop();
      for (const abort of running.current.values()) abort.abort();
      running.current.clear();
    };
  }, [controller, key]);
  const stop = (serverId: string) => running.current.get(serverId)?.abort();
  return { servers, listings: listings.value, stop };
}

/**
 * Completion values for one argument as its value changes: asked after a pause in typing; an answer
 * that arrives after the value changed again is dropped (its request is aborted too).
 */
export function useCompletion(
  offerings: SessionOfferings | undefined,
  enabled: boolean,
  serverId: string,
  ref: CompleteRequestParams['ref'],
  name: string,
  value: string,
  context: Record<string, string>,
): readonly string[] {
  const values = useSignal<readonly string[]>([]);
  const asked = useRef(0);
  const contextKey = JSON.stringify(context);
  useEffect(() => {
    if (!offerings || !enabled) return;
    const ticket = ++asked.current;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      offerings
        .complete(
          serverId,
          {
            ref,
            argument: { name, value },
            ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
          },
          abort.signal,
        )
        .then(
          (result) => {
            if (ticket === asked.current) values.value = result.completion.values;
          },
          () => {
            // Suggestions are a convenience: a failed or aborted one leaves the field as typed.
            if (ticket === asked.current) values.value = [];
          },
        );
    }, COMPLETION_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [offerings, enabled, serverId, JSON.stringify(ref), name, value, contextKey]);
  return values.value;
}

/** A text field with the server's suggestions below it, each a button that fills the field. */
export function CompletingField({
  id,
  label,
  required,
  description,
  value,
  suggestions,
  onChange,
}: {
  id: string;
  label: string;
  required?: boolean;
  description?: string;
  value: string;
  suggestions: readonly string[];
  onChange: (value: string) => void;
}) {
  const shown = suggestions.slice(0, 8);
  return (
    <div class="tg-field">
      <label for={id}>
        {label}
        {required && <span class="tg-required"> (required)</span>}
      </label>
      {description && (
        <p class="tg-help" id={`${id}-help`}>
          {description}
        </p>
      )}
      <input
        id={id}
        type="text"
        autocomplete="off"
        required={required}
        aria-describedby={description ? `${id}-help` : undefined}
        value={value}
        onInput={(event) => onChange((event.currentTarget as HTMLInputElement).value)}
      />
      {shown.length > 0 && (
        <ul class="tg-suggestions" aria-label={`Suggestions for ${label}`}>
          {shown.map((item) => (
            <li key={item}>
              <button type="button" class="tg-link-button" onClick={() => onChange(item)}>
                {item}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Matches a search: every word appears in one of the texts (case-insensitive). */
export function matches(query: string, ...texts: Array<string | undefined>): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = texts.filter(Boolean).join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** "just now", "2 minutes ago": when an update arrived. */
export function ago(at: number, now = Date.now()): string {
  const seconds = Math.round((now - at) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ago`;
  const hours = Math.round(minutes / 60);
  return `${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
}

/** What the Resources and Prompts tabs list: one row, keyed, under its server. */
interface OfferedItem {
  key: string;
  server: ServerState;
}

/**
 * The left pane of the Resources and Prompts tabs: the search, how many match, and each server's
 * rows under its name (loading, or why it could not list them). `kind` names what is offered
 * ("prompts"), `noun` how many match ("1 prompt", "3 prompts"); `row` draws a row inside its button.
 */
export function OfferingList<I extends OfferedItem>({
  id,
  kind,
  noun,
  servers,
  listings,
  items,
  query,
  selected,
  names,
  row,
  stop,
}: {
  id: string;
  kind: 'prompts' | 'resources';
  noun: { one: string; many: string };
  servers: readonly ServerState[];
  listings: Record<string, Listing<unknown>>;
  items: readonly I[];
  query: Signal<string>;
  selected: Signal<string | undefined>;
  names: (serverId: string) => string;
  row: (item: I) => ComponentChildren;
  stop: (serverId: string) => void;
}) {
  const loadingMore = servers.some((server) => {
    const listing = listings[server.id];
    return !listing || listing.status === 'loading' || (listing.status === 'ready' && listing.more);
  });
  return (
    <div>
      <label for={id}>Search {kind}</label>
      <input
        id={id}
        type="search"
        value={query.value}
        onInput={(event) => {
          query.value = (event.currentTarget as HTMLInputElement).value;
        }}
      />
      <p class="tg-muted" role="status">
        {items.length.toLocaleString('en')} {items.length === 1 ? noun.one : noun.many}
        {loadingMore && ' so far'}
      </p>
      {servers.length === 0 && <p class="tg-pick">No connected server offers {kind}.</p>}
      {servers.map((server) => {
        const listing = listings[server.id];
        const own = items.filter((item) => item.server.id === server.id);
        const label = names(server.id);
        return (
          <section
            key={server.id}
            class="tg-offer-group"
            aria-label={`${kind === 'prompts' ? 'Prompts' : 'Resources'} of ${label}`}
          >
            <h3>{label}</h3>
            {(!listing || listing.status === 'loading') && <p class="tg-muted">Loading…</p>}
            {listing?.status === 'failed' && <p class="tg-error">Could not list them: {listing.error}</p>}
            {own.length > 0 && (
              <ul class="tg-offer-list">
                {own.map((item) => (
                  <li key={item.key}>
                    <button
                      type="button"
                      class="tg-offer-row"
                      aria-current={item.key === selected.value ? 'true' : undefined}
                      onClick={() => {
                        selected.value = item.key;
                      }}
                    >
                      {row(item)}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {listing?.status === 'ready' && listing.more && (
              <p class="tg-muted tg-row">
                <span>Loading more… {listing.count.toLocaleString('en')} listed</span>
                <button type="button" onClick={() => stop(server.id)}>
                  Stop listing {label}
                </button>
              </p>
            )}
            {listing?.status === 'ready' && listing.note && (
              <p class="tg-muted">
                {listing.note} {listing.count.toLocaleString('en')} listed.
              </p>
            )}
          </section>
        );
      })}
    </div>
  );
}
