/**
 * The panel: tabs for servers, tools, activity and the audit log, with the approval and elicitation
 * dialogs over them whenever something waits for the person, and an Apps tab while MCP Apps are
 * open (views/app-area.tsx). The "overlay" shape shows only the dialogs and a running-call
 * indicator, for apps that want just the confirm step.
 */

import { useSignal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { afterFirstPaint, type PanelController, serverNames } from '../session/index.js';
import { AuditAlert } from './audit-alert.js';
import type { ConnectionFix, DoctorAccess } from './connection-fix.js';
import { lazyView } from './lazy.js';
import { ThemeToggle, useThemeChoice } from './theme-toggle.js';
import { createPanelViewState } from './view-state.js';
import type { PanelApps } from './views/app-area.js';
import { ServersView } from './views/servers-view.js';
import { ToolsView } from './views/tools-view.js';

// Separate chunks (see lazy.tsx): the first load is the servers and tools views only.
const ActivityView = lazyView(() => import('./views/activity-view.js').then((m) => m.ActivityView));
const ApprovalDialog = lazyView(() => import('./views/approval-dialog.js').then((m) => m.ApprovalDialog));
const BatchApprovalDialog = lazyView(() =>
  import('./views/batch-approval-dialog.js').then((m) => m.BatchApprovalDialog),
);
const AuditView = lazyView(() => import('./views/audit-view.js').then((m) => m.AuditView));
const RulesView = lazyView(() => import('./views/rules-view.js').then((m) => m.RulesView));
const RememberedView = lazyView(() => import('./views/remembered-view.js').then((m) => m.RememberedView));
// One chunk for both tabs: they share their listings and completion code.
const ResourcesView = lazyView(() => import('./views/offerings-tabs.js').then((m) => m.ResourcesView));
const PromptsView = lazyView(() => import('./views/offerings-tabs.js').then((m) => m.PromptsView));
const SkillsView = lazyView(() => import('./views/skills-view.js').then((m) => m.SkillsView));
const InspectView = lazyView(() => import('./views/inspect-view.js').then((m) => m.InspectView));
const SignInDialog = lazyView(() => import('./views/sign-in-dialog.js').then((m) => m.SignInDialog));
const AccessDialog = lazyView(() => import('./views/access-dialog.js').then((m) => m.AccessDialog));
const ElicitationDialog = lazyView(() =>
  import('./views/elicitation-dialog.js').then((m) => m.ElicitationDialog),
);

export type PanelShape = 'panel' | 'overlay';

const TABS = [
  { id: 'servers', label: 'Servers' },
  { id: 'tools', label: 'Tools' },
  { id: 'skills', label: 'Skills' },
  { id: 'activity', label: 'Activity' },
  { id: 'log', label: 'Audit log' },
  { id: 'remembered', label: 'Approvals' },
  { id: 'rules', label: 'Rules' },
  { id: 'inspect', label: 'Inspect' },
];

/** A section a host adds to the panel's tabs (the extension's "Sites"). */
export interface PanelTab {
  id: string;
  label: string;
  render: () => ComponentChildren;
}

export interface PanelProps {
  controller: PanelController;
  shape?: PanelShape;
  extraTabs?: readonly PanelTab[];
  /** Shown above the panel's own dialogs (the extension's site consent). */
  extraDialog?: ComponentChildren;
  /** The host's own fix for a failed connection, first in its card (connection-fix.ts). */
  connectionFix?: ConnectionFix;
  /** The host's way past CORS at an origin, offered in doctor reports (connection-fix.ts). */
  doctorAccess?: DoctorAccess;
  /** The tab shown first (default 'servers'). */
  startTab?: string;
}

/** Every listed tool with its server's label: the approval dialog flags a title that is another's name. */
function everyTool(servers: PanelController['servers']['value']) {
  const names = serverNames(servers);
  return servers.flatMap((server) =>
    server.tools.map((tool) => ({ name: tool.name, serverLabel: names(server.id) })),
  );
}

export function Panel({
  controller,
  shape = 'panel',
  extraTabs = [],
  extraDialog,
  connectionFix,
  doctorAccess,
  startTab = 'servers',
}: PanelProps) {
  const tab = useSignal<string>(startTab);
  // What the Tools tab keeps (selected tool, typed arguments, the form's last call) across tabs.
  const views = useMemo(createPanelViewState, []);
  const root = useRef<HTMLDivElement>(null);
  const [theme, choose] = useThemeChoice(root);
  useEffect(() => {
    // "/" searches the tools, from anywhere in the panel but a field being typed in or a dialog.
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (
        event.key !== '/' ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        target.isContentEditable ||
        target.closest('textarea,select,input:not([type=checkbox],[type=radio]),.tg-backdrop')
      )
        return;
      event.preventDefault();
      views.focusToolSearch.value = true;
      tab.value = 'tools';
    };
    const element = root.current;
    element?.addEventListener('keydown', onKey);
    return () => element?.removeEventListener('keydown', onKey);
  }, [views]);
  // MCP Apps: their store and tab come after the first paint, so the first screen never pays for them.
  const [apps, setApps] = useState<PanelApps | string>();
  useEffect(() => {
    if (shape !== 'panel') return;
    let live = true;
    let held: PanelApps | undefined;
    afterFirstPaint()
      .then(() => import('./views/app-area.js'))
      .then(
        (m) => {
          if (!live) return;
          held = m.panelApps(controller, tab);
          setApps(held);
        },
        (error: unknown) => live && setApps(`MCP Apps did not load (${error}): reload the page.`),
      );
    return () => {
      live = false;
      held?.release();
    };
  }, [controller, shape]);
  const app = typeof apps === 'object' ? apps : undefined;
  // The Apps tab is listed while an app is open, beside Activity, where its calls are.
  const afterActivity = TABS.findIndex((t) => t.id === 'activity') + 1;
  // Resources and Prompts are listed while a connected server declares them (and this controller
  // reaches its connections: the extension's side panel mirrors one that runs elsewhere).
  const connected = controller.offerings
    ? controller.servers.value.filter((s) => s.state === 'connected')
    : [];
  const offered = [
    ...(connected.some((s) => s.offers?.resources) ? [{ id: 'resources', label: 'Resources' }] : []),
    ...(connected.some((s) => s.offers?.prompts) ? [{ id: 'prompts', label: 'Prompts' }] : []),
  ];
  const afterTools = TABS.findIndex((t) => t.id === 'tools') + 1;
  const tabs = [
    ...TABS.slice(0, afterTools),
    ...offered,
    ...TABS.slice(afterTools, afterActivity),
    ...(app?.tabs() ?? []),
    ...TABS.slice(afterActivity),
    ...extraTabs,
  ];
  const extra = extraTabs.find((t) => t.id === tab.value);
  // A sign-in waiting on its server's card opens no dialog until the person asks (servers-view.tsx).
  const signIn = controller.signIns?.value.find((item) => !item.onCard);
  const approval = controller.approvals.value[0];
  // Calls proposed at once are asked about together, in one dialog.
  const batchId = approval?.request.batch?.id;
  const batch = batchId
    ? controller.approvals.value.filter((item) => item.request.batch?.id === batchId)
    : undefined;
  const elicitation = controller.elicitations.value[0];
  const access = controller.accesses?.value[0];
  const running = controller.running.value.length;

  const dialogs = (
    <>
      {extraDialog}
      {!extraDialog && signIn && (
        <SignInDialog
          key={signIn.id}
          pending={signIn}
          serverLabel={serverNames(controller.servers.value)(signIn.serverId)}
        />
      )}
      {!extraDialog && !signIn && batch && <BatchApprovalDialog key={batchId} items={batch} />}
      {!extraDialog && !signIn && approval && !batch && (
        <ApprovalDialog
          key={approval.request.invocationId}
          pending={approval}
          queued={controller.approvals.value.length}
          tools={everyTool(controller.servers.value)}
        />
      )}
      {!extraDialog && !signIn && !approval && access && (
        <AccessDialog
          key={access.request.invocationId}
          pending={access}
          queued={controller.accesses!.value.length}
        />
      )}
      {!extraDialog && !signIn && !approval && !access && elicitation && (
        <ElicitationDialog
          key={elicitation.id}
          pending={elicitation}
          queue={controller.elicitations.value}
          serverName={serverNames(controller.servers.value)}
        />
      )}
    </>
  );
  if (shape === 'overlay')
    return (
      <div class="tg-root tg-overlay" ref={root}>
        {running > 0 && (
          <p class="tg-indicator" role="status">
            <span class="tg-spinner" aria-hidden="true" /> {running} tool {running === 1 ? 'call' : 'calls'}{' '}
            running
          </p>
        )}
        {dialogs}
      </div>
    );

  const select = (id: string) => {
    tab.value = id;
  };
  return (
    <div class="tg-root" ref={root}>
      <header class="tg-header">
        <strong>Toolgate</strong>
        {running > 0 && (
          <span class="tg-indicator" role="status">
            <span class="tg-spinner" aria-hidden="true" /> {running} running
          </span>
        )}
        <ThemeToggle root={root} chosen={theme} choose={choose} />
      </header>
      <AuditAlert controller={controller} onOpen={() => select('log')} />
      <div
        role="tablist"
        aria-label="Toolgate sections"
        class="tg-tablist"
        onKeyDown={(event) => {
          const index = tabs.findIndex((t) => t.id === tab.value);
          const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
          if (!step) return;
          event.preventDefault();
          const next = tabs[(index + step + tabs.length) % tabs.length]!;
          select(next.id);
          (
            (event.currentTarget as HTMLElement).querySelector(`#tg-tab-${next.id}`) as HTMLElement | null
          )?.focus();
        }}
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`tg-tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab.value === t.id}
            aria-controls={`tg-tabpanel-${t.id}`}
            tabIndex={tab.value === t.id ? 0 : -1}
            onClick={() => select(t.id)}
          >
            {t.label}
            {t.id === 'activity' && running > 0 ? ` (${running})` : ''}
          </button>
        ))}
      </div>
      {typeof apps === 'string' && <p class="tg-error">{apps}</p>}
      {/* Kept mounted while apps are open, hidden on other tabs: hiding keeps their frames alive. */}
      {app?.render(tab.value === 'apps')}
      {tab.value !== 'apps' && (
        <div
          role="tabpanel"
          id={`tg-tabpanel-${tab.value}`}
          aria-labelledby={`tg-tab-${tab.value}`}
          class="tg-tabpanel"
        >
          {tab.value === 'servers' && (
            <ServersView controller={controller} connectionFix={connectionFix} doctorAccess={doctorAccess} />
          )}
          {tab.value === 'tools' && <ToolsView controller={controller} views={views} />}
          {tab.value === 'resources' && <ResourcesView controller={controller} />}
          {tab.value === 'prompts' && <PromptsView controller={controller} />}
          {tab.value === 'skills' && <SkillsView controller={controller} />}
          {tab.value === 'activity' && (
            <ActivityView
              controller={controller}
              onShowApp={app?.showApp}
              views={views}
              onOpenTools={() => select('tools')}
            />
          )}
          {tab.value === 'log' && (
            <AuditView controller={controller} runAgain={{ views, openTools: () => select('tools') }} />
          )}
          {tab.value === 'remembered' && <RememberedView controller={controller} />}
          {tab.value === 'rules' && <RulesView controller={controller} />}
          {tab.value === 'inspect' && <InspectView controller={controller} />}
          {extra?.render()}
        </div>
      )}
      {dialogs}
    </div>
  );
}
