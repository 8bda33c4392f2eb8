/**
 * The side panel: the full widget, showing the service worker's controller, with the extension's
 * own "Sites" tab, the site-consent dialog, its own fix first in a failed server's card (reach a
 * server that refuses CORS), and (when the tab the person is on is a site that is not turned on) a
 * one-click "Let … use your tools" in a notice the person can dismiss. The popup is its own page
 * (popup.tsx).
 */

import { signal } from '@preact/signals';
import { render } from 'preact';
import { Panel, panelStyles, prefetchViews } from '../src/ui/index.js';
import { watchDismissedNotices } from './notices.js';
import { createRemoteController, type RemoteController } from './remote/remote-controller.js';
import { PANEL_PORT } from './remote/wire.js';
import { watchServerOrigins } from './server-access.js';
import { activeTabOrigin, watchTurnedOnSites } from './site-switch.js';
import { ConsentDialog } from './views/consent-dialog.js';
import { ServerAccessList, serverAccessFix, serverAccessForDoctor } from './views/server-access.js';
import { SitesView } from './views/sites-view.js';
import { extensionStyles } from './views/styles.js';
import { ActiveSiteBar } from './views/turn-on-site.js';

const turnedOn = signal<string[]>([]);
const activeOrigin = signal<string | undefined>(undefined);
/** Origins the person let Toolgate reach as servers that send no CORS headers. */
const serverOrigins = signal<string[]>([]);
/** Notices the person closed (notices.ts); undefined until read. */
const dismissed = signal<string[] | undefined>(undefined);

function ExtensionPanel({ remote }: { remote: RemoteController }) {
  const consent = remote.consents.value[0];
  const active = activeOrigin.value;
  return (
    <>
      {!remote.connected.value && (
        <p class="tg-warning" role="status">
          Reconnecting to Toolgate’s background worker…
        </p>
      )}
      {active && (
        <ActiveSiteBar key={active} origin={active} turnedOn={turnedOn.value} dismissed={dismissed.value} />
      )}
      <Panel
        controller={remote}
        extraTabs={[
          {
            id: 'sites',
            label: 'Sites',
            render: () => (
              <>
                <SitesView remote={remote} turnedOn={turnedOn.value} activeOrigin={active} />
                <ServerAccessList granted={serverOrigins.value} />
              </>
            ),
          },
        ]}
        connectionFix={serverAccessFix(remote, serverOrigins)}
        doctorAccess={serverAccessForDoctor(remote, serverOrigins)}
        extraDialog={consent && <ConsentDialog key={consent.id} consent={consent} remote={remote} />}
      />
    </>
  );
}

const host = document.getElementById('toolgate')!;
const root = host.attachShadow({ mode: 'open' });
const style = document.createElement('style');
style.textContent = panelStyles + extensionStyles;
const container = document.createElement('div');
root.replaceChildren(style, container);

const remote = createRemoteController({
  connect: () => chrome.runtime.connect({ name: PANEL_PORT }),
  // The log's runtime loads after the first paint (shared-audit-log.ts).
  openAuditLog: () => import('./shared-audit-log.js').then(({ openSharedAuditLog }) => openSharedAuditLog()),
  // MCP Apps run in the manifest's sandbox page: an opaque origin with its own CSP (an extension
  // page's CSP would block the proxy's inline script in a srcdoc frame). See manifest.json "sandbox".
  apps: { opaqueSandboxUrl: chrome.runtime.getURL('mcp-app-sandbox.html') },
});
watchTurnedOnSites((origins) => {
  turnedOn.value = origins;
});
watchServerOrigins((origins) => {
  serverOrigins.value = origins;
});
watchDismissedNotices((ids) => {
  dismissed.value = ids;
});
void activeTabOrigin().then((origin) => {
  activeOrigin.value = origin;
});
render(<ExtensionPanel remote={remote} />, container);
prefetchViews();
addEventListener('pagehide', () => remote.close());
