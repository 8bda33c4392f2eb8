/**
 * The side panel and the popup: the full widget, showing the service worker's controller, with the
 * extension's own "Sites" tab and the site-consent dialog.
 */

import { render } from 'preact';
import { createAuditLog } from '../src/audit/log.js';
import { prefetchViews } from '../src/ui/lazy.js';
import { Panel } from '../src/ui/panel.js';
import { panelStyles } from '../src/ui/styles.js';
import { createRemoteController, type RemoteController } from './remote/remote-controller.js';
import { PANEL_PORT } from './remote/wire.js';
import { ConsentDialog } from './views/consent-dialog.js';
import { SitesView } from './views/sites-view.js';

function ExtensionPanel({ remote }: { remote: RemoteController }) {
  const consent = remote.consents.value[0];
  return (
    <>
      {!remote.connected.value && (
        <p class="tg-warning" role="status">
          Reconnecting to Toolgate’s background worker…
        </p>
      )}
      <Panel
        controller={remote}
        extraTabs={[{ id: 'sites', label: 'Sites', render: () => <SitesView remote={remote} /> }]}
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
