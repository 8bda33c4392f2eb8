/**
 * The side panel and the popup: the full widget, showing the service worker's controller, with the
 * extension's own "Sites" tab, the site-consent dialog, and (when the tab the person is on is a site
 * that is not turned on) a one-click "Let … use your tools".
 */

import { signal } from '@preact/signals';
import { render } from 'preact';
import { createAuditLog } from '../src/audit/index.js';
import { Panel, panelStyles, prefetchViews } from '../src/ui/index.js';
import { createRemoteController, type RemoteController } from './remote/remote-controller.js';
import { PANEL_PORT } from './remote/wire.js';
import { watchServerOrigins } from './server-access.js';
import { activeTabOrigin, watchTurnedOnSites } from './site-switch.js';
import { ConsentDialog } from './views/consent-dialog.js';
import { ServerAccessBar, ServerAccessList } from './views/server-access.js';
import { SitesView } from './views/sites-view.js';
import { ActiveSiteBar } from './views/turn-on-site.js';

const turnedOn = signal<string[]>([]);
const activeOrigin = signal<string | undefined>(undefined);
/** Origins the person let Toolgate reach as servers that send no CORS headers. */
const serverOrigins = signal<string[]>([]);

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
      {active && <ActiveSiteBar key={active} origin={active} turnedOn={turnedOn.value} />}
      <ServerAccessBar remote={remote} granted={serverOrigins.value} />
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
        extraDialog={consent && <ConsentDialog key={consent.id} consent={consent} remote={remote} />}
      />
    </>
  );
}

const host = document.getElementById('toolgate')!;
const root = host.attachShadow({ mode: 'open' });
const style = document.createElement('style');
style.textContent = panelStyles;
const container = document.createElement('div');
root.replaceChildren(style, container);

const remote = createRemoteController({
  connect: () => chrome.runtime.connect({ name: PANEL_PORT }),
  openAuditLog: () => createAuditLog({ name: 'toolgate-audit' }),
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
void activeTabOrigin().then((origin) => {
  activeOrigin.value = origin;
});
render(<ExtensionPanel remote={remote} />, container);
prefetchViews();
addEventListener('pagehide', () => remote.close());

// The popup offers the side panel, which stays open while the person browses.
const openSidePanel = document.getElementById('open-side-panel');
if (openSidePanel) {
  let windowId: number | undefined;
  void chrome.windows.getCurrent().then((current) => {
    windowId = current.id;
  });
  openSidePanel.addEventListener('click', () => {
    if (windowId !== undefined) void chrome.sidePanel.open({ windowId }).then(() => window.close());
  });
}
