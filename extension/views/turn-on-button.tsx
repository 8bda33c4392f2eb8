/**
 * "Let <origin> use your tools": one click turns Toolgate's page API on for the site the person is
 * looking at (side panel notice, popup). Without signals, so the popup's bundle stays small.
 */

import { useState } from 'preact/hooks';
import { turnOnSite } from '../site-switch.js';
import { InsecureOriginNote } from './insecure-origin-note.js';

interface Outcome {
  ok: boolean;
  text: string;
}

/** Turns the origin on; resolves with a sentence for the person, whatever Chrome answered. */
export async function turnOn(origin: string): Promise<Outcome> {
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

/** "Let <origin> use your tools", and what came of it (the popup shows it as it is). */
export function TurnOnButton({ origin, turnedOn }: { origin: string; turnedOn: readonly string[] }) {
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  if (turnedOn.includes(origin) && !outcome) return null;
  return (
    <>
      {!turnedOn.includes(origin) && (
        <>
          <InsecureOriginNote origin={origin} />
          <button
            type="button"
            class="tg-allow"
            onClick={() =>
              void turnOn(origin).then((result) => {
                setOutcome(result);
              })
            }
          >
            Let {origin} use your tools
          </button>
        </>
      )}
      {outcome && (
        <p class={outcome.ok ? 'tg-ok' : 'tg-error'} role="status">
          {outcome.text}
        </p>
      )}
    </>
  );
}
