/**
 * The slot where one open MCP App appears. It costs the panel almost nothing: the app host (sandbox,
 * protocol, CSP) is fetched only when an app is actually shown, never prefetched.
 */

import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { OpenApp, OpenApps } from '../../apps/index.js';
import type { PanelController } from '../../session/index.js';
import type { AppViewProps } from './app-view.js';

let appView: Promise<ComponentType<AppViewProps>> | undefined;
/** Once loaded, the next app renders at once (no "Loading" frame in between to lose focus to). */
let loadedAppView: ComponentType<AppViewProps> | undefined;
const loadAppView = () => {
  appView ??= import('./app-view.js').then(
    (module) => {
      loadedAppView = module.AppView;
      return module.AppView;
    },
    (error: unknown) => {
      appView = undefined;
      throw error;
    },
  );
  return appView;
};

export function AppFrame({
  controller,
  apps,
  app,
}: {
  controller: PanelController;
  apps: OpenApps;
  app: OpenApp;
}) {
  const [View, setView] = useState<ComponentType<AppViewProps> | undefined>(() => loadedAppView);
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    if (View) return;
    let live = true;
    loadAppView().then(
      (loaded) => live && setView(() => loaded),
      (error: unknown) => live && setFailure(`Toolgate could not load the app host (${String(error)}).`),
    );
    return () => {
      live = false;
    };
  }, [View]);
  if (failure)
    return (
      <div class="tg-row" data-app={app.resourceUri} data-app-id={app.id}>
        <p class="tg-error">{failure}</p>
        <button type="button" onClick={() => void apps.close(app.id, 'closed by the person')}>
          Close app
        </button>
      </div>
    );
  if (!View)
    return (
      <p class="tg-muted" role="status" data-app-id={app.id} tabIndex={-1}>
        Loading the app…
      </p>
    );
  return <View controller={controller} apps={apps} app={app} />;
}
