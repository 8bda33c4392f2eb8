/**
 * The slot where a finished call's MCP App appears, under its result in Activity. It costs the
 * panel almost nothing: unless the call's tool links a `ui://` resource, it renders nothing, and the
 * app host (sandbox, protocol, CSP) is fetched only when an app is actually shown, never prefetched.
 */

import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { FinishedCall, PanelController } from '../session/controller.js';
import type { AppViewProps } from './app-view.js';
import { uiResourceUriOf } from './tool-ui.js';

let appView: Promise<ComponentType<AppViewProps>> | undefined;
const loadAppView = () => {
  appView ??= import('./app-view.js').then(
    (module) => module.AppView,
    (error: unknown) => {
      appView = undefined;
      throw error;
    },
  );
  return appView;
};

export function AppFrame({ controller, call }: { controller: PanelController; call: FinishedCall }) {
  const tool = controller.servers.value
    .find((server) => server.id === call.serverId)
    ?.tools.find((candidate) => candidate.name === call.toolName);
  const resourceUri = tool ? uiResourceUriOf(tool) : undefined;
  // An app's own calls answer the app; they never open another copy of it.
  const shown = resourceUri !== undefined && call.outcome.ok && call.caller?.kind !== 'mcp-app';
  const [View, setView] = useState<ComponentType<AppViewProps>>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    if (!shown || View) return;
    let live = true;
    loadAppView().then(
      (loaded) => live && setView(() => loaded),
      (error: unknown) => live && setFailure(`Toolgate could not load the app host (${String(error)}).`),
    );
    return () => {
      live = false;
    };
  }, [shown, View]);
  if (!shown || !tool || !resourceUri || !call.outcome.ok) return null;
  if (failure) return <p class="tg-error">{failure}</p>;
  if (!View)
    return (
      <p class="tg-muted" role="status">
        Loading the app…
      </p>
    );
  return (
    <View
      controller={controller}
      serverId={call.serverId}
      tool={tool}
      resourceUri={resourceUri}
      result={call.outcome.result}
      resultAt={call.finishedAt}
    />
  );
}
