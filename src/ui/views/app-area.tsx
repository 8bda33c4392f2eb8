/**
 * The Apps tab: every open MCP App of the session, each in its own frame. The panel keeps this view
 * mounted (hidden while another tab is shown), so switching tabs never reloads or tears down an
 * app; only its Close button, the app itself, its server leaving or the panel closing ends one.
 */

import { AppFrame } from '../../apps/app-frame.js';
import type { AppsLease, OpenApps } from '../../apps/open-apps.js';
import type { PanelController } from '../../session/controller.js';

export function AppArea({
  controller,
  apps,
  lease,
}: {
  controller: PanelController;
  apps: OpenApps;
  lease: AppsLease;
}) {
  const open = apps.apps.value;
  return (
    <section class="tg-view" aria-labelledby="tg-apps-heading">
      <h2 id="tg-apps-heading">Apps</h2>
      {!lease.renders.value ? (
        // Two panels of one session: the apps run in the first, once (their calls would go twice).
        <p class="tg-muted">These apps are shown in the other Toolgate panel of this page.</p>
      ) : (
        <>
          <p class="tg-muted">
            Apps that servers' tools opened. Each runs isolated from this page; its tool calls ask you like
            any other caller's.
          </p>
          {open.map((app) => (
            <AppFrame key={app.id} controller={controller} apps={apps} app={app} />
          ))}
        </>
      )}
    </section>
  );
}
