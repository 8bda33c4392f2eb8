/** mount(): the panel in any element, inside a shadow root so host CSS and ours never meet. */

import { h, render } from 'preact';
import type { OtlpExport, OtlpExportOptions } from '../audit/index.js';
import { type Controller, type ControllerOptions, createController } from '../session/index.js';
import { Panel, type PanelShape, panelStyles, prefetchViews } from '../ui/index.js';

export interface MountOptions extends ControllerOptions {
  /** 'panel' (default): servers, tools, activity, log. 'overlay': only the confirm step. */
  shape?: PanelShape;
  /** A controller to show instead of creating one (several views of one state). */
  controller?: Controller;
  /**
   * Stream the audit log to an OpenTelemetry collector (OTLP/HTTP, JSON), as createToolgateHost's
   * `otlp` does. The exporter is fetched only when this is set, after the first paint.
   */
  otlp?: OtlpExportOptions;
  /** The tab shown first: 'servers' (default), 'tools', 'activity', 'log', 'inspect'… */
  startTab?: string;
}

export interface Mounted {
  controller: Controller;
  /** The audit log's export, once started (undefined without `otlp`); rejects saying why it cannot start. */
  otlpExport(): Promise<OtlpExport | undefined>;
  unmount(): void;
}

/** Renders at once; the gate, the audit log and the rarer views load in the background. */
export function mount(element: HTMLElement, options: MountOptions = {}): Mounted {
  const controller = options.controller ?? createController(options);
  const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = panelStyles;
  const container = document.createElement('div');
  root.replaceChildren(style, container);
  render(
    h(Panel, {
      controller,
      shape: options.shape ?? 'panel',
      ...(options.startTab ? { startTab: options.startTab } : {}),
    }),
    container,
  );
  prefetchViews();
  const collector = options.otlp;
  // Fetched only with a collector, so a panel without one loads none of it.
  const otlp =
    collector &&
    import('../session/audit-export.js').then(({ startAuditExport }) =>
      startAuditExport(controller, collector, console.warn),
    );
  return {
    controller,
    otlpExport: () => otlp ?? Promise.resolve(undefined),
    unmount() {
      render(null, container);
      root.replaceChildren();
      // Stop exporting before the log closes; the cursor keeps what the collector acknowledged.
      void otlp?.then(
        (running) => running.stop(),
        () => undefined,
      );
      if (!options.controller) void controller.close();
    },
  };
}
