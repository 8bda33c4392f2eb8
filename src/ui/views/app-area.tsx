/**
 * The Apps tab: every open MCP App of the session, each in its own frame. The panel loads this after
 * its first paint and keeps the tab's panel mounted while any app is open (hidden while another tab
 * is shown), so switching tabs never reloads or tears down an app; only its Close button, the app
 * itself, its server leaving or the panel closing ends one.
 */

import { effect, type Signal, signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { type AppsLease, type OpenApps, openAppsOf } from '../../apps/index.js';
import type { PanelController } from '../../session/index.js';
import { AppFrame } from './app-frame.js';

/** What the panel needs of its apps: the Apps tab, its panel, Activity's link. */
export interface PanelApps {
  /** The Apps tab, with how many are open, while any is (a signal read: the panel follows it). */
  tabs(): { id: string; label: string }[];
  /** Activity's "Show app": the call's app (opened again if it was closed), shown and focused. */
  showApp(invocationId: string): void;
  /** The Apps tab's panel, hidden unless `selected`; nothing while no app is open. */
  render(selected: boolean): preact.JSX.Element | null;
  /** The panel is going: its apps are torn down (unless another panel shows this session). */
  release(): void;
}

/**
 * Holds the session's open apps for one panel whose selected tab is `tab`. An app the person opened
 * with their own call is shown at once; others wait in the Apps tab (its label counts them). When
 * the last app closes while its tab is shown, Activity (where its call is) is shown instead.
 */
export function panelApps(controller: PanelController, tab: Signal<string>): PanelApps {
  const store = openAppsOf(controller);
  const lease = store.retain();
  const focus = signal<string | undefined>(undefined);
  const seen = new Set(store.apps.peek().map((app) => app.id));
  const stop = effect(() => {
    const open = store.apps.value;
    for (const app of open) {
      if (seen.has(app.id)) continue;
      seen.add(app.id);
      if (app.caller?.kind === 'person' && lease.renders.peek()) tab.value = 'apps';
    }
    if (open.length === 0 && tab.peek() === 'apps') tab.value = 'activity';
  });
  return {
    tabs() {
      const count = store.apps.value.length;
      return count ? [{ id: 'apps', label: `Apps (${count})` }] : [];
    },
    showApp(invocationId) {
      const app = store.show(invocationId);
      if (!app) return;
      tab.value = 'apps';
      focus.value = app.id;
    },
    render: (selected) =>
      store.apps.value.length === 0 ? null : (
        <div
          role="tabpanel"
          id="tg-tabpanel-apps"
          aria-labelledby="tg-tab-apps"
          class="tg-tabpanel"
          hidden={!selected}
        >
          <AppArea controller={controller} apps={store} lease={lease} focus={focus} />
        </div>
      ),
    release() {
      stop();
      lease.release();
    },
  };
}

function AppArea({
  controller,
  apps,
  lease,
  focus,
}: {
  controller: PanelController;
  apps: OpenApps;
  lease: AppsLease;
  /** The app to bring into view and focus (Activity's "Show app"), once it is rendered. */
  focus: Signal<string | undefined>;
}) {
  const open = apps.apps.value;
  const section = useRef<HTMLElement>(null);
  const wanted = focus.value;
  useEffect(() => {
    if (!wanted) return;
    // The app's frame may still be loading its host: focus what is there, its figure or its slot.
    const target = section.current?.querySelector<HTMLElement>(`[data-app-id="${wanted}"]`);
    if (!target) return;
    target.focus();
    target.scrollIntoView({ block: 'nearest' });
    focus.value = undefined;
  });
  return (
    <section class="tg-view" aria-labelledby="tg-apps-heading" ref={section}>
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
          {/* Newest first, where it is seen: a browser does not lay out a frame out of view, so an
              app below the fold would not even paint. Keyed, so older frames stay where they are. */}
          {[...open].reverse().map((app) => (
            <AppFrame key={app.id} controller={controller} apps={apps} app={app} />
          ))}
        </>
      )}
    </section>
  );
}
