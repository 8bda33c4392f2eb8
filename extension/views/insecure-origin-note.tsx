/** The warning beside any plain-http site that is not this machine: its pages can be tampered with. */

import { isInsecureRemoteOrigin } from '../origins.js';

export function InsecureOriginNote({ origin }: { origin: string }) {
  if (!isInsecureRemoteOrigin(origin)) return null;
  return (
    <p class="tg-warning" role="note">
      <strong>Not secure:</strong> <code>{origin}</code> uses plain http over the network. Anyone on the way
      can read and change its pages and what they send, including the calls it asks you to approve, and
      nothing verifies that the site is who it says it is.
    </p>
  );
}
