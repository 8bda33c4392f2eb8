/**
 * "Let this site use your tools": the person turns Toolgate's page API on for one site. Chrome asks
 * them to confirm (the host permission for that origin); the worker then adds the bridge to the
 * site's pages. The click must reach chrome.permissions.request before anything is awaited.
 */

import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { parseSiteAddress } from '../site-patterns.js';
import { turnOnSite } from '../site-switch.js';
import { InsecureOriginNote } from './insecure-origin-note.js';

/** Turns the origin on; resolves with a sentence for the person, whatever Chrome answered. */
async function turnOn(origin: string): Promise<{ ok: boolean; text: string }> {
  try {
    return (await turnOnSite(origin))
      ? {
          ok: true,
          text: `Toolgate is on for ${origin}. Its pages can now ask for your tools; open ones get the page API without a reload.`,
        }
      : { ok: false, text: `Toolgate was not turned on for ${origin}: Chrome’s permission was not given.` };
  } catch (error) {
    return { ok: false, text: (error as Error).message };
  }
}

/** The form in the Sites tab: any address, prefilled with the tab the person is looking at. */
export function TurnOnSiteForm({ suggested }: { suggested?: string | undefined }) {
  const address = useSignal(suggested ?? '');
  const outcome = useSignal<{ ok: boolean; text: string } | undefined>(undefined);
  useEffect(() => {
    if (suggested && !address.value) address.value = suggested;
  }, [suggested]);
  const parsed = parseSiteAddress(address.value);

  return (
    <form
      class="tg-turn-on-site"
      onSubmit={(event) => {
        event.preventDefault();
        const site = parseSiteAddress(address.value);
        if ('problem' in site) {
          outcome.value = { ok: false, text: site.problem };
          return;
        }
        void turnOn(site.origin).then((result) => {
          outcome.value = result;
          if (result.ok) address.value = '';
        });
      }}
    >
      <label for="tg-site-address">Site address</label>
      <input
        id="tg-site-address"
        type="text"
        inputMode="url"
        spellcheck={false}
        placeholder="https://app.example"
        value={address.value}
        onInput={(event) => {
          address.value = (event.currentTarget as HTMLInputElement).value;
          outcome.value = undefined;
        }}
      />
      {'origin' in parsed && <InsecureOriginNote origin={parsed.origin} />}
      <button type="submit" class="tg-allow">
        Let this site use your tools
      </button>
      <p class="tg-muted">
        Chrome asks you to let Toolgate “read and change” that site’s data: that is what lets Toolgate add{' '}
        <code>window.toolgate</code> to its pages. Toolgate reads nothing from them.
      </p>
      {outcome.value && (
        <p class={outcome.value.ok ? 'tg-ok' : 'tg-error'} role="status">
          {outcome.value.text}
        </p>
      )}
    </form>
  );
}

/** Above the panel, when the tab the person is on is a site that is not turned on: one click. */
export function ActiveSiteBar({ origin, turnedOn }: { origin: string; turnedOn: readonly string[] }) {
  const outcome = useSignal<{ ok: boolean; text: string } | undefined>(undefined);
  if (turnedOn.includes(origin) && !outcome.value) return null;
  return (
    <section class="tg-active-site" aria-label="This site">
      {!turnedOn.includes(origin) && (
        <>
          <InsecureOriginNote origin={origin} />
          <button
            type="button"
            class="tg-allow"
            onClick={() =>
              void turnOn(origin).then((result) => {
                outcome.value = result;
              })
            }
          >
            Let {origin} use your tools
          </button>
        </>
      )}
      {outcome.value && (
        <p class={outcome.value.ok ? 'tg-ok' : 'tg-error'} role="status">
          {outcome.value.text}
        </p>
      )}
    </section>
  );
}
