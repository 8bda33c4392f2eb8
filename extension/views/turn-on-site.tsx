/**
 * "Let this site use your tools": the person turns Toolgate's page API on for one site. Chrome asks
 * them to confirm (the host permission for that origin); the worker then adds the bridge to the
 * site's pages. The click must reach chrome.permissions.request before anything is awaited.
 */

import { useSignal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { parseSiteAddress } from '../site-patterns.js';
import { InsecureOriginNote } from './insecure-origin-note.js';
import { Notice } from './notice.js';
import { TurnOnButton, turnOn } from './turn-on-button.js';

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

/**
 * Above the side panel, when the tab the person is on is a site that is not turned on: one click,
 * in a notice the person can dismiss for that site.
 */
export function ActiveSiteBar({
  origin,
  turnedOn,
  dismissed,
}: {
  origin: string;
  turnedOn: readonly string[];
  dismissed: readonly string[] | undefined;
}) {
  // Once offered, the notice stays (with what the click came to) until the person closes it.
  const offered = useRef(false);
  if (!turnedOn.includes(origin)) offered.current = true;
  if (!offered.current) return null;
  return (
    <Notice id={`turn-on-site:${origin}`} label={`Turning Toolgate on for ${origin}`} dismissed={dismissed}>
      <TurnOnButton origin={origin} turnedOn={turnedOn} />
    </Notice>
  );
}
